import { afterEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { withTransaction } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { labels, rates, shipmentDocuments, shipments, trackers } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { StateConflictError } from "@/lib/errors";
import type { ShipResult } from "@/lib/carriers/types";
import { connectionById } from "@/lib/connections/select-connections";
import { presentRate } from "@/lib/rates/present-rate";
import {
  assertNoLiveClaim,
  claimLeaseMs,
  claimShipment,
  ClaimLostError,
  completeClaim,
  releaseClaim,
  renewClaim,
  type Claim,
} from "@/lib/shipments/claim";
import { findShipmentRow, loadShipmentParts } from "@/lib/shipments/load-shipments";
import { CANCEL_ATTEMPT, PURCHASE_ATTEMPT } from "@/lib/shipments/outcome-unknown";
import { recordPurchase, type PurchaseRecord } from "@/lib/shipments/record-purchase";
import { makeOrg, orgCtx } from "./helpers";
import { createShipmentFor } from "./factories";

/**
 * The claim (lib/shipments/claim.ts) and the write that records a purchase under it (record-purchase.ts), called
 * directly on a real database: what a claim admits and refuses, down to its deadline's boundary. Time is an input
 * (`now`), never waited for.
 */

const T0 = new Date("2030-01-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

async function aShipment() {
  const { key, orgId } = await makeOrg();
  const s = await createShipmentFor(key);
  const ctx = await orgCtx(orgId);
  const row = () => findShipmentRow(ctx.db, orgId, s.id);
  return { key, orgId, s, ctx, row };
}

/** A second shipment of the same organization: a claim's writes must never reach it. */
async function neighbourOf(key: string, orgId: string) {
  const other = await createShipmentFor(key);
  const ctx = await orgCtx(orgId);
  return () => findShipmentRow(ctx.db, orgId, other.id);
}

async function pending(orgId: string, id: string) {
  const db = await getDb();
  const [r] = await db
    .select({ op: shipments.pendingOperation, until: shipments.pendingUntil, meta: shipments.meta })
    .from(shipments)
    .where(and(eq(shipments.orgId, orgId), eq(shipments.id, id)));
  return r!;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("assertNoLiveClaim", () => {
  const held = (op: "purchase" | "cancel" | null, until: Date | null) => ({
    pendingOperation: op,
    pendingUntil: until,
  });

  it("refuses while a claim's deadline is ahead, saying which operation holds it and until when", () => {
    expect(() => assertNoLiveClaim(held("purchase", at(1)), T0)).toThrow(StateConflictError);
    expect(() => assertNoLiveClaim(held("purchase", at(1)), T0)).toThrow(
      "A purchase of this shipment is in progress (held until 2030-01-01 00:00:00.001000+00:00). Retry after that if it does not finish.",
    );
    expect(() => assertNoLiveClaim(held("cancel", at(60_000)), T0)).toThrow(
      /^A cancellation of this shipment is in progress \(held until 2030-01-01 00:01:00\.000000\+00:00\)/,
    );
  });

  it("lets through no claim, a claim without a deadline, and a claim whose deadline is now or past", () => {
    expect(() => assertNoLiveClaim(held(null, null), T0)).not.toThrow();
    expect(() => assertNoLiveClaim(held(null, at(1)), T0)).not.toThrow();
    expect(() => assertNoLiveClaim(held("purchase", null), T0)).not.toThrow();
    expect(() => assertNoLiveClaim(held("purchase", T0), T0)).not.toThrow();
    expect(() => assertNoLiveClaim(held("purchase", at(-1)), T0)).not.toThrow();
  });

  it("reads the clock when not given one", () => {
    expect(() => assertNoLiveClaim(held("purchase", new Date(Date.now() + 60_000)))).toThrow(StateConflictError);
    expect(() => assertNoLiveClaim(held("purchase", new Date(Date.now() - 60_000)))).not.toThrow();
  });
});

describe("claimLeaseMs", () => {
  it("is the connection's carrier deadline plus two minutes to record the outcome", () => {
    expect(claimLeaseMs({ config: { deadline_ms: 5_000 } })).toBe(125_000);
    expect(claimLeaseMs({ config: {} })).toBe(env().CARRIER_DEADLINE_MS + 120_000);
  });
});

describe("claimShipment", () => {
  it("writes the operation, a deadline of now + lease and what it is given; the shipment's neighbours are untouched", async () => {
    const { key, orgId, s, ctx, row } = await aShipment();
    const neighbour = await neighbourOf(key, orgId);
    const claim = await claimShipment(ctx.db, await row(), "purchase", ["created"], 30_000, { meta: { a: 1 } }, T0);
    expect(claim).toEqual({ orgId, shipmentId: s.id, operation: "purchase", until: at(30_000), from: ["created"] });
    expect(await pending(orgId, s.id)).toEqual({ op: "purchase", until: at(30_000), meta: { a: 1 } });
    expect(await neighbour()).toMatchObject({ pendingOperation: null, pendingUntil: null });
  });

  it("defaults to writing nothing besides the claim, and to the clock", async () => {
    const { orgId, s, ctx, row } = await aShipment();
    // The clock stands still: the claim's deadline is exactly its lease from now.
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = Date.now();
    const claim = await claimShipment(ctx.db, await row(), "cancel", ["created"], 30_000);
    expect(claim.until).toEqual(new Date(now + 30_000));
    const p = await pending(orgId, s.id);
    expect(p.op).toBe("cancel");
    expect(p.meta).toEqual((await row()).meta);
  });

  it("refuses a live claim until its deadline has passed, the deadline itself included", async () => {
    const { orgId, s, ctx, row } = await aShipment();
    const read = await row();
    await claimShipment(ctx.db, read, "purchase", ["created"], 1_000, {}, T0);
    for (const now of [T0, at(999), at(1_000)]) {
      await expect(claimShipment(ctx.db, read, "purchase", ["created"], 1_000, {}, now)).rejects.toThrow(
        "The shipment changed while this purchase started: another purchase or cancellation is in progress or has finished. Fetch the shipment and retry if needed.",
      );
    }
    await expect(claimShipment(ctx.db, read, "cancel", ["created"], 1_000, {}, at(500))).rejects.toThrow(
      /while this cancellation started/,
    );
    const taken = await claimShipment(ctx.db, read, "cancel", ["created"], 1_000, {}, at(1_001));
    expect(taken.until).toEqual(at(2_001));
    expect(await pending(orgId, s.id)).toMatchObject({ op: "cancel", until: at(2_001) });
  });

  it("refuses a shipment whose status is not one the operation starts from", async () => {
    const { ctx, row } = await aShipment();
    await expect(claimShipment(ctx.db, await row(), "cancel", ["purchased"], 1_000, {}, T0)).rejects.toBeInstanceOf(
      StateConflictError,
    );
    await expect(claimShipment(ctx.db, await row(), "cancel", [], 1_000, {}, T0)).rejects.toBeInstanceOf(
      StateConflictError,
    );
  });

  it("refuses another organization's shipment of the same id", async () => {
    const { ctx, row } = await aShipment();
    const stranger = await makeOrg("Stranger");
    const read = { ...(await row()), orgId: stranger.orgId };
    await expect(claimShipment(ctx.db, read, "purchase", ["created"], 1_000, {}, T0)).rejects.toBeInstanceOf(
      StateConflictError,
    );
  });

  it("refuses when the shipment's attempts are no longer the ones read, either attempt, either way", async () => {
    for (const key of [PURCHASE_ATTEMPT, CANCEL_ATTEMPT]) {
      const { orgId, s, ctx, row } = await aShipment();
      const clean = await row();
      const db = await getDb();
      // Someone else's attempt landed after this caller read a clean shipment.
      await db
        .update(shipments)
        .set({ meta: { ...clean.meta, [key]: { started_at: "x" } } })
        .where(eq(shipments.id, s.id));
      await expect(claimShipment(ctx.db, clean, "purchase", ["created"], 1_000, {}, T0)).rejects.toBeInstanceOf(
        StateConflictError,
      );
      // Read with that attempt: the claim is admitted, and only while the attempt stays the one read.
      const withAttempt = await row();
      await db
        .update(shipments)
        .set({ meta: { ...clean.meta, [key]: { started_at: "y" } } })
        .where(eq(shipments.id, s.id));
      await expect(claimShipment(ctx.db, withAttempt, "purchase", ["created"], 1_000, {}, T0)).rejects.toBeInstanceOf(
        StateConflictError,
      );
      const current = await row();
      await claimShipment(ctx.db, current, "purchase", ["created"], 1_000, {}, T0);
      expect((await pending(orgId, s.id)).op).toBe("purchase");
    }
  });
});

describe("renewClaim", () => {
  it("moves a held claim's deadline and writes what it is given, to this shipment only", async () => {
    const { key, orgId, s, ctx, row } = await aShipment();
    const neighbour = await neighbourOf(key, orgId);
    const claim = await claimShipment(ctx.db, await row(), "purchase", ["created"], 1_000, {}, T0);
    const renewed = await renewClaim(ctx.db, claim, at(5_000), { meta: { renewed: true } });
    expect(renewed).toEqual({ ...claim, until: at(5_000) });
    expect(await pending(orgId, s.id)).toEqual({ op: "purchase", until: at(5_000), meta: { renewed: true } });
    const n = await neighbour();
    expect(n).toMatchObject({ pendingOperation: null, pendingUntil: null });
    expect(n.meta).not.toHaveProperty("renewed");
  });

  it("refuses a claim that is no longer held: taken over, another operation's, or from another status", async () => {
    const { orgId, s, ctx, row } = await aShipment();
    const read = await row();
    const claim = await claimShipment(ctx.db, read, "purchase", ["created"], 1_000, {}, T0);
    await expect(renewClaim(ctx.db, { ...claim, operation: "cancel" }, at(5_000), {})).rejects.toThrow(
      /while this cancellation started/,
    );
    await expect(renewClaim(ctx.db, { ...claim, from: ["purchased"] }, at(5_000), {})).rejects.toBeInstanceOf(
      StateConflictError,
    );
    await expect(renewClaim(ctx.db, { ...claim, until: at(999) }, at(5_000), {})).rejects.toBeInstanceOf(
      StateConflictError,
    );
    await expect(renewClaim(ctx.db, { ...claim, shipmentId: "shp_missing" }, at(5_000), {})).rejects.toBeInstanceOf(
      StateConflictError,
    );
    const stranger = await makeOrg("Stranger");
    await expect(renewClaim(ctx.db, { ...claim, orgId: stranger.orgId }, at(5_000), {})).rejects.toBeInstanceOf(
      StateConflictError,
    );
    expect(await pending(orgId, s.id)).toMatchObject({ op: "purchase", until: at(1_000) });
    // Taken over once expired: the first claim is lost for good.
    await claimShipment(ctx.db, read, "purchase", ["created"], 1_000, {}, at(1_001));
    await expect(renewClaim(ctx.db, claim, at(5_000), {})).rejects.toThrow(/while this purchase started/);
  });
});

describe("releaseClaim", () => {
  it("gives a held claim back with what it is given, status unchanged; a lost claim is left alone", async () => {
    const { key, orgId, s, ctx, row } = await aShipment();
    const neighbour = await neighbourOf(key, orgId);
    const claim = await claimShipment(ctx.db, await row(), "purchase", ["created"], 1_000, {}, T0);
    await releaseClaim(ctx.db, { ...claim, until: at(2) }, { meta: { wrong: true } });
    await releaseClaim(ctx.db, { ...claim, operation: "cancel" }, { meta: { wrong: true } });
    expect(await pending(orgId, s.id)).toMatchObject({ op: "purchase", until: at(1_000) });

    await releaseClaim(ctx.db, claim, { meta: { released: true } });
    expect(await pending(orgId, s.id)).toEqual({ op: null, until: null, meta: { released: true } });
    expect((await row()).status).toBe("created");
    const n = await neighbour();
    expect(n.meta).not.toHaveProperty("released");
  });

  it("writes nothing else by default, and can restore the claim the shipment had", async () => {
    const { orgId, s, ctx, row } = await aShipment();
    const before = (await row()).meta;
    const claim = await claimShipment(ctx.db, await row(), "purchase", ["created"], 1_000, {}, T0);
    await releaseClaim(ctx.db, claim);
    expect(await pending(orgId, s.id)).toEqual({ op: null, until: null, meta: before });

    const again = await claimShipment(ctx.db, await row(), "purchase", ["created"], 1_000, {}, at(10));
    await releaseClaim(ctx.db, again, {}, { pendingOperation: "purchase", pendingUntil: at(-5) });
    expect(await pending(orgId, s.id)).toMatchObject({ op: "purchase", until: at(-5) });
  });
});

describe("completeClaim", () => {
  it("moves the shipment and clears the claim while it holds; null once it does not", async () => {
    const { orgId, s, ctx, row } = await aShipment();
    const claim = await claimShipment(ctx.db, await row(), "cancel", ["created"], 1_000, {}, T0);
    const lost: Claim[] = [
      { ...claim, operation: "purchase" },
      { ...claim, until: at(1_001) },
      { ...claim, from: ["purchased"] },
    ];
    for (const c of lost) {
      const out = await withTransaction(ctx, ({ db: tx }) => completeClaim(tx, c, "cancelled", { messages: [] }, T0));
      expect(out).toBeNull();
    }
    expect(await row()).toMatchObject({ status: "created", pendingOperation: "cancel", pendingUntil: at(1_000) });

    const done = await withTransaction(ctx, ({ db: tx }) =>
      completeClaim(tx, claim, "cancelled", { messages: [] }, at(10)),
    );
    expect(done).toMatchObject({ id: s.id, status: "cancelled", pendingOperation: null, pendingUntil: null });
    expect(await pending(orgId, s.id)).toMatchObject({ op: null, until: null });
    // Released meanwhile (no deadline at all): not held, and no crash over the missing deadline.
    const gone = await withTransaction(ctx, ({ db: tx }) => completeClaim(tx, claim, "cancelled", {}, at(20)));
    expect(gone).toBeNull();
  });
});

describe("ClaimLostError", () => {
  it("is named, so logs and retries tell it apart", () => {
    const err = new ClaimLostError();
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe("ClaimLostError");
    expect(err.message).toBe("the shipment's claim expired and was taken over");
  });
});

describe("recordPurchase", () => {
  /** A purchase claimed as purchaseShipment claims it, and a label "sold" for it. */
  async function bought(tracking = "1ZTEST0001") {
    const t = await aShipment();
    const read = await t.row();
    const [parts] = await loadShipmentParts(t.ctx.db, t.orgId, [read]);
    const connection = await connectionById({ ctx: t.ctx, id: t.s.rates[0]!.carrier_ref, capability: "ship" });
    const [rate] = await t.ctx.db.select().from(rates).where(eq(rates.id, t.s.rates[0]!.id));
    const claim = await claimShipment(t.ctx.db, read, "purchase", ["created"], 60_000);
    const shipped = (tracking_number: string): ShipResult => ({
      tracking_number,
      shipment_identifier: `SID-${tracking_number}`,
      label: { type: "PNG", bytes: new Uint8Array([137, 80, 78, 71]) },
      documents: [{ type: "commercial_invoice", format: "PDF", bytes: new Uint8Array([37, 80, 68, 70]), name: null }],
      charge: null,
      meta: {},
    });
    const record = (tn = tracking): PurchaseRecord => ({
      claim,
      connection,
      shipped: shipped(tn),
      selected: presentRate(rate!),
      messages: [],
      payment: { paid_by: "sender", currency: "USD", account_number: null },
      reference: "ORDER-7",
      customs: null,
      meta: { recorded_by: "test" },
      recipient: parts!.recipient,
    });
    const count = async (table: typeof labels | typeof trackers | typeof shipmentDocuments) =>
      (await t.ctx.db.select().from(table).where(eq(table.orgId, t.orgId))).length;
    return { ...t, claim, record, count };
  }

  it("records the label, its tracker and the purchased shipment under the claim", async () => {
    const { ctx, s, record, count } = await bought();
    const row = await recordPurchase(ctx, record());
    expect(row).toMatchObject({
      id: s.id,
      status: "purchased",
      trackingNumber: "1ZTEST0001",
      shipmentIdentifier: "SID-1ZTEST0001",
      labelType: "PNG",
      reference: "ORDER-7",
      meta: { recorded_by: "test" },
      pendingOperation: null,
    });
    expect(row.trackerId).not.toBeNull();
    const [label] = await ctx.db.select().from(labels).where(eq(labels.shipmentId, s.id));
    expect(label).toMatchObject({ type: "PNG" });
    expect(Array.from(label!.content)).toEqual([137, 80, 78, 71]);
    const [invoice] = await ctx.db.select().from(shipmentDocuments).where(eq(shipmentDocuments.shipmentId, s.id));
    expect(invoice).toMatchObject({ orgId: ctx.org.id, type: "commercial_invoice", format: "PDF", position: 0 });
    expect(Array.from(invoice!.content)).toEqual([37, 80, 68, 70]);
    expect(await count(trackers)).toBe(1);
  });

  it("run again after its commit landed, answers the recorded row and records nothing twice", async () => {
    const { ctx, record, count } = await bought();
    const first = await recordPurchase(ctx, record());
    const again = await recordPurchase(ctx, record());
    expect(again).toEqual(first);
    expect(await count(labels)).toBe(1);
    expect(await count(shipmentDocuments)).toBe(1);
    expect(await count(trackers)).toBe(1);
  });

  it("a shipment purchased with another label is not taken for this one: refused, nothing is written", async () => {
    const { ctx, s, record, count } = await bought();
    await recordPurchase(ctx, record());
    await expect(recordPurchase(ctx, record("1ZOTHER0002"))).rejects.toThrow();
    expect(await count(labels)).toBe(1);
    expect((await findShipmentRow(ctx.db, ctx.org.id, s.id)).trackingNumber).toBe("1ZTEST0001");
  });

  it("only a purchased shipment counts as already recorded: the same number on an unbought one is recorded", async () => {
    const { ctx, s, record, count } = await bought();
    // A tracking number on a shipment that is not purchased (as a carrier may reuse one) proves nothing was recorded.
    await ctx.db.update(shipments).set({ trackingNumber: "1ZTEST0001" }).where(eq(shipments.id, s.id));
    const row = await recordPurchase(ctx, record());
    expect(row).toMatchObject({ status: "purchased", trackingNumber: "1ZTEST0001", pendingOperation: null });
    expect(await count(labels)).toBe(1);
  });

  it("a claim taken over meanwhile: ClaimLostError, and the label, documents and tracker roll back", async () => {
    const { ctx, s, row, record, count, claim } = await bought();
    // The claim expired and another purchase took the shipment.
    await claimShipment(ctx.db, await row(), "purchase", ["created"], 60_000, {}, new Date(claim.until.getTime() + 1));
    await expect(recordPurchase(ctx, record())).rejects.toBeInstanceOf(ClaimLostError);
    expect(await count(labels)).toBe(0);
    expect(await count(shipmentDocuments)).toBe(0);
    expect(await count(trackers)).toBe(0);
    expect(await row()).toMatchObject({ id: s.id, status: "created", trackingNumber: null });
  });
});
