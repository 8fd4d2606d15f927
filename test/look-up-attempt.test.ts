import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import type { FoundShipment } from "@/lib/carriers/types";
import { forgetOrgConnections } from "@/lib/connections/cache";
import { carrierConnections } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { lookUpAttempt } from "@/lib/shipments/look-up-attempt";
import { attemptWindow, type PurchaseAttempt } from "@/lib/shipments/outcome-unknown";
import { makeOrg, orgCtx } from "./helpers";
import { addSandbox } from "./factories";

/**
 * lib/shipments/look-up-attempt.ts called directly: what the carrier is asked about a purchase whose answer was lost,
 * and what its records are taken to mean, down to the attempt's deadline. The clock is the `now` it is given.
 */

afterEach(() => vi.restoreAllMocks());

const STARTED = new Date("2030-01-01T12:00:00.000Z");
const SETTLED_BY = new Date("2030-01-01T12:02:30.000Z");
const SHIPMENT = "shp_00000000000000000000000000000001";

async function setUp(config: Record<string, unknown> = {}) {
  const { key, orgId } = await makeOrg();
  const connection = await addSandbox(key, "lookup", config);
  const ctx = await orgCtx(orgId);
  const attempt: PurchaseAttempt = {
    ...attemptWindow(STARTED, SETTLED_BY),
    carrier_connection_id: connection.id,
    carrier_name: "sandbox",
    carrier_id: "lookup",
    selected_rate_id: "rat_1",
    reference: "ORDER-5",
    label_type: "PDF",
    payment: { paid_by: "sender", currency: "USD", account_number: null },
  };
  return { ctx, orgId, connection, attempt };
}

const sale = (tracking_number: string, shipment_key: string | null): FoundShipment => ({
  tracking_number,
  shipment_identifier: `SID-${tracking_number}`,
  label: { type: "PDF", bytes: new Uint8Array([1]) },
  documents: [],
  charge: null,
  meta: {},
  reference: "ORDER-5",
  shipment_key,
  sold_at: STARTED,
});

function carrierHolds(sales: FoundShipment[]) {
  return vi.spyOn(sandboxAdapter, "findShipments").mockResolvedValue({ data: sales, messages: [] });
}

describe("lookUpAttempt", () => {
  it("cannot tell without the attempt's details, or without its connection", async () => {
    const { ctx, attempt } = await setUp();
    const find = carrierHolds([]);
    expect(await lookUpAttempt(ctx, SHIPMENT, null)).toEqual({
      kind: "unknown",
      reason: "the attempt's details were not recorded",
      messages: [],
    });
    expect(
      await lookUpAttempt(ctx, SHIPMENT, { ...attempt, carrier_connection_id: "car_gone" }, SETTLED_BY),
    ).toMatchObject({ kind: "unknown", reason: "its carrier connection car_gone no longer exists" });
    expect(find).not.toHaveBeenCalled();
  });

  it("cannot tell where the carrier cannot look labels up", async () => {
    const { ctx, attempt } = await setUp();
    const findShipments = sandboxAdapter.findShipments;
    Object.assign(sandboxAdapter, { findShipments: undefined });
    try {
      expect(await lookUpAttempt(ctx, SHIPMENT, attempt, SETTLED_BY)).toMatchObject({
        kind: "unknown",
        reason: "sandbox cannot look labels up by reference",
      });
    } finally {
      Object.assign(sandboxAdapter, { findShipments });
    }
  });

  it("cannot tell where the connection's carrier is no longer supported", async () => {
    const { ctx, orgId, connection, attempt } = await setUp();
    await ctx.db
      .update(carrierConnections)
      .set({ carrierName: "retired" })
      .where(eq(carrierConnections.id, connection.id));
    forgetOrgConnections(orgId);
    expect(await lookUpAttempt(ctx, SHIPMENT, attempt, SETTLED_BY)).toMatchObject({
      kind: "unknown",
      reason: "sandbox cannot look labels up by reference",
    });
  });

  it("asks for the attempt's reference (else the shipment id), sold since five minutes before it started", async () => {
    const { ctx, attempt } = await setUp();
    const find = carrierHolds([]);
    const info = vi.spyOn(log(), "info");
    await lookUpAttempt(ctx, SHIPMENT, attempt, SETTLED_BY);
    await lookUpAttempt(ctx, SHIPMENT, { ...attempt, reference: null }, SETTLED_BY);
    expect(find.mock.calls.map((c) => c[1])).toEqual([
      { reference: "ORDER-5", sold_since: new Date("2030-01-01T11:55:00.000Z") },
      { reference: SHIPMENT, sold_since: new Date("2030-01-01T11:55:00.000Z") },
    ]);
    // The operator's log names the operation: one "lookup" line per question asked.
    const operations = info.mock.calls
      .map((c) => c[0] as unknown as Record<string, unknown>)
      .filter((l) => l.msg === "carrier_operation")
      .map((l) => [l.operation, l.carrier_id]);
    expect(operations).toEqual([
      ["lookup", "lookup"],
      ["lookup", "lookup"],
    ]);
  });

  it("a failed lookup cannot tell, and says why with the carrier's messages", async () => {
    const { ctx, attempt } = await setUp({ fail_operations: ["lookup"] });
    const verdict = await lookUpAttempt(ctx, SHIPMENT, attempt, SETTLED_BY);
    expect(verdict).toMatchObject({
      kind: "unknown",
      reason: "looking it up failed (Sandbox service temporarily unavailable. Please try again later.)",
    });
    expect(verdict.kind === "unknown" && verdict.messages.map((m) => m.code)).toEqual(["carrier_unavailable"]);
  });

  it("finds only the labels sold with this shipment's key", async () => {
    const { ctx, attempt } = await setUp();
    carrierHolds([sale("1", "shp_other"), sale("2", SHIPMENT), sale("3", SHIPMENT)]);
    const verdict = await lookUpAttempt(ctx, SHIPMENT, attempt, STARTED);
    expect(verdict.kind).toBe("found");
    expect(verdict.kind === "found" && verdict.labels.map((l) => l.tracking_number)).toEqual(["2", "3"]);
    expect(verdict.kind === "found" && verdict.connection.carrierId).toBe("lookup");
  });

  it("records that do not say whose a label is cannot tell, even once the attempt is over", async () => {
    const { ctx, attempt } = await setUp();
    carrierHolds([sale("1", "shp_other"), sale("2", null)]);
    expect(await lookUpAttempt(ctx, SHIPMENT, attempt, new Date(SETTLED_BY.getTime() + 1))).toMatchObject({
      kind: "unknown",
      reason: "sandbox's records under reference ORDER-5 do not say which shipment a label was for",
    });
  });

  it("nothing sold: too early to tell until the attempt's deadline, its last instant included; none after", async () => {
    const { ctx, attempt } = await setUp();
    carrierHolds([sale("1", "shp_other")]);
    for (const now of [STARTED, SETTLED_BY]) {
      expect(await lookUpAttempt(ctx, SHIPMENT, attempt, now)).toEqual({
        kind: "unknown",
        reason: `sandbox has no label with reference ORDER-5 yet but may still be handling the request until ${attempt.settled_by}`,
        messages: [],
        until: attempt.settled_by,
      });
    }
    expect(await lookUpAttempt(ctx, SHIPMENT, attempt, new Date(SETTLED_BY.getTime() + 1))).toEqual({ kind: "none" });
    // Without a clock given, it reads the real one (2030 is still ahead).
    expect((await lookUpAttempt(ctx, SHIPMENT, attempt)).kind).toBe("unknown");
    const past = attemptWindow(new Date(Date.now() - 60_000), new Date(Date.now() - 1_000));
    expect((await lookUpAttempt(ctx, SHIPMENT, { ...attempt, ...past })).kind).toBe("none");
  });
});
