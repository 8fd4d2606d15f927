import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import type { ShipResult } from "@/lib/carriers/types";
import { connectionById } from "@/lib/connections/select-connections";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { shipments } from "@/lib/db/schema";
import { claimShipment, ClaimLostError } from "@/lib/shipments/claim";
import { findShipmentRow } from "@/lib/shipments/load-shipments";
import { voidOrphanLabel } from "@/lib/shipments/void-orphan-label";
import { makeOrg, orgCtx } from "./helpers";
import { addSandbox, createShipmentFor } from "./factories";

/**
 * Step 4 of a purchase, called directly: a label bought but not recorded is voided at the carrier, and what happens
 * to the claim and the attempt depends on why it was not recorded; when it cannot be voided, the log says what an
 * operator needs to void it by hand.
 */

// Opening the database (a copy of the migrated one) belongs to the hook's longer timeout, not the first test's.
beforeAll(async () => {
  await getDb();
});
afterEach(() => vi.restoreAllMocks());

const shipped: ShipResult = {
  tracking_number: "1ZORPHAN01",
  shipment_identifier: "SID-ORPHAN",
  label: { type: "PDF", bytes: new Uint8Array([1]) },
  documents: [],
  charge: null,
  meta: {},
};

async function orphanOf(config: Record<string, unknown> = {}) {
  const { key, orgId } = await makeOrg();
  const added = await addSandbox(key, "orphans", config);
  const s = await createShipmentFor(key, { carrier_ids: [added.id] });
  const ctx = await orgCtx(orgId);
  const connection = await connectionById({ ctx, id: added.id, capability: "ship" });
  const attemptMeta = { purchase_attempt: { started_at: "x" }, kept: 1 };
  await ctx.db.update(shipments).set({ meta: attemptMeta }).where(eq(shipments.id, s.id));
  const claim = await claimShipment(
    ctx.db,
    await findShipmentRow(ctx.db, orgId, s.id),
    "purchase",
    ["created"],
    60_000,
  );
  const stored = async () => {
    const [r] = await ctx.db
      .select()
      .from(shipments)
      .where(and(eq(shipments.orgId, orgId), eq(shipments.id, s.id)));
    return r!;
  };
  const warn = vi.spyOn(ctx.log, "warn");
  const error = vi.spyOn(ctx.log, "error");
  return { ctx, connection, claim, stored, warn, error, s };
}

describe("voidOrphanLabel", () => {
  it("voids the label; a purchase that failed to record gives the claim back with the attempt removed", async () => {
    const { ctx, connection, claim, stored, warn, error, s } = await orphanOf();
    const voids = vi
      .spyOn(sandboxAdapter, "void")
      .mockResolvedValue({ data: { voided: true, refund: null }, messages: [] });
    const info = vi.spyOn(log(), "info");
    await voidOrphanLabel({ ctx, connection, shipped, claim, cause: new Error("db down"), meta: { kept: 1 } });
    expect(voids).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "carrier_operation", operation: "void", connection_id: connection.id }),
    );
    expect(voids.mock.calls[0]![1]).toEqual({ tracking_number: "1ZORPHAN01", shipment_identifier: "SID-ORPHAN" });
    expect(await stored()).toMatchObject({ pendingOperation: null, pendingUntil: null, meta: { kept: 1 } });
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({
        msg: "label voided because its purchase could not be recorded",
        shipment_id: s.id,
        connection_id: connection.id,
        tracking_number: "1ZORPHAN01",
        shipment_identifier: "SID-ORPHAN",
        cause: "not_recorded",
      }),
    );
  });

  it("a lost claim is someone else's: the label is voided, the claim and the attempt are left to its holder", async () => {
    const { ctx, connection, claim, stored, warn } = await orphanOf();
    vi.spyOn(sandboxAdapter, "void").mockResolvedValue({ data: { voided: true, refund: null }, messages: [] });
    await voidOrphanLabel({ ctx, connection, shipped, claim, cause: new ClaimLostError(), meta: { kept: 1 } });
    expect(await stored()).toMatchObject({
      pendingOperation: "purchase",
      pendingUntil: claim.until,
      meta: { purchase_attempt: { started_at: "x" }, kept: 1 },
    });
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ cause: "claim_lost" }));
  });

  it("a refused void: logged as an orphan with the carrier's codes; the claim and the attempt stay", async () => {
    const { ctx, connection, claim, stored, warn, error } = await orphanOf({ fail_operations: ["void"] });
    await voidOrphanLabel({ ctx, connection, shipped, claim, cause: new Error("db down"), meta: { kept: 1 } });
    expect(await stored()).toMatchObject({
      pendingOperation: "purchase",
      meta: { purchase_attempt: { started_at: "x" } },
    });
    expect(warn).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({
        msg: "orphan label: bought but neither recorded nor voided; void it in the carrier account",
        tracking_number: "1ZORPHAN01",
        carrier_name: "sandbox",
        cause: "not_recorded",
        codes: ["carrier_unavailable"],
      }),
    );
  });

  it("a carrier without a void: logged as an orphan, not_supported, and the carrier is not called", async () => {
    const { ctx, connection, claim, stored, error } = await orphanOf();
    const voidLabel = sandboxAdapter.void;
    Object.assign(sandboxAdapter, { void: undefined });
    try {
      await voidOrphanLabel({ ctx, connection, shipped, claim, cause: new ClaimLostError(), meta: {} });
    } finally {
      Object.assign(sandboxAdapter, { void: voidLabel });
    }
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ cause: "claim_lost", codes: ["not_supported"] }));
    expect((await stored()).pendingOperation).toBe("purchase");
  });

  it("a connection whose carrier is no longer supported: logged as an orphan, not_supported", async () => {
    const { ctx, connection, claim, stored, error } = await orphanOf();
    const voids = vi.spyOn(sandboxAdapter, "void");
    const retired = { ...connection, carrierName: "retired" };
    await voidOrphanLabel({ ctx, connection: retired, shipped, claim, cause: new Error("db down"), meta: {} });
    expect(voids).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ carrier_name: "retired", cause: "not_recorded", codes: ["not_supported"] }),
    );
    expect((await stored()).pendingOperation).toBe("purchase");
  });
});
