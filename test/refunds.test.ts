import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { CarrierError, type CarrierAdapter, type Refund, type RefundCheck } from "@/lib/carriers/types";
import { systemContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { shipments } from "@/lib/db/schema";
import { checkDueRefunds } from "@/lib/shipments/refunds";
import { call, makeOrg } from "./helpers";
import { addSandbox, createShipmentFor, purchaseFor } from "./factories";

/**
 * Refunds a void starts (lib/shipments/refunds.ts): the sandbox voids before billing, so its `void` is made to answer
 * as USPS does for a manifested label (a refund request, pending) and it is lent a `checkRefund`; the real carriers'
 * refunds are proved against the emulator in their own tests.
 */

const adapter = sandboxAdapter as CarrierAdapter;
/** Carriers settle refunds in days: a pending one is asked about every 6 hours. */
const REFUND_RECHECK_MS = 6 * 60 * 60 * 1000;

beforeAll(async () => {
  await getDb();
});
afterEach(() => {
  vi.restoreAllMocks();
  delete adapter.checkRefund;
});

const cancelOf = (key: string, id: string) =>
  call(cancel, "POST", `/v1/shipments/${id}/cancel`, { key, params: { id } });
const show = async (key: string, id: string) =>
  (await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } })).body;
const stored = async (id: string) => (await (await getDb()).select().from(shipments).where(eq(shipments.id, id)))[0]!;

/** A bought sandbox label whose void answers a pending refund request with reference `ref`. */
async function cancelledWithPendingRefund(ref = "103789", checkable = true) {
  const { key } = await makeOrg();
  const carrier = await addSandbox(key, `refunds-${ref}`);
  const s = await createShipmentFor(key, { carrier_ids: [carrier.id] });
  expect((await purchaseFor(key, s)).status).toBe(200);
  vi.spyOn(sandboxAdapter, "void").mockResolvedValueOnce({
    data: { voided: true, refund: { status: "pending", reference: ref } },
    messages: [],
  });
  // A carrier that can say where a refund stands (tests lend their own answers after the cancellation).
  if (checkable) checkAnswers();
  const res = await cancelOf(key, s.id);
  expect(res.status).toBe(200);
  return { key, s, answer: res.body };
}

/** Lends the sandbox a checkRefund answering each of `answers` in turn. */
function checkAnswers(...answers: (Refund | Error)[]) {
  const fn = vi.fn(async (_ctx: unknown, _req: RefundCheck) => {
    const next = answers.shift()!;
    if (next instanceof Error) throw next;
    return { data: next, messages: [] };
  });
  adapter.checkRefund = fn as unknown as CarrierAdapter["checkRefund"];
  return fn;
}

describe("a void that starts a refund", () => {
  it("cancels the shipment at once and records the refund as pending, to be checked later", async () => {
    const before = Date.now();
    const { s, answer } = await cancelledWithPendingRefund();
    expect(answer.shipment.status).toBe("cancelled");
    expect(answer.shipment.refund).toMatchObject({
      status: "pending",
      reference: "103789",
      checked_at: null,
      settled_at: null,
    });
    const row = await stored(s.id);
    expect(row.refundCheckAfter!.getTime()).toBeGreaterThanOrEqual(before + REFUND_RECHECK_MS);
    expect(row.refundCheckAfter!.getTime()).toBeLessThanOrEqual(Date.now() + REFUND_RECHECK_MS);
  });

  it("a refund the carrier settles in its void answer is recorded settled, with nothing left to check", async () => {
    const { key } = await makeOrg();
    const carrier = await addSandbox(key, "settled-at-once");
    const s = await createShipmentFor(key, { carrier_ids: [carrier.id] });
    await purchaseFor(key, s);
    vi.spyOn(sandboxAdapter, "void").mockResolvedValueOnce({
      data: { voided: true, refund: { status: "refunded", reference: null } },
      messages: [],
    });
    const res = await cancelOf(key, s.id);
    expect(res.body.shipment.refund).toMatchObject({ status: "refunded", reference: null });
    expect(res.body.shipment.refund.settled_at).toBe(res.body.shipment.refund.requested_at);
    expect((await stored(s.id)).refundCheckAfter).toBeNull();
  });

  it("a void that needs no refund leaves `refund` null and nothing to check", async () => {
    const { key } = await makeOrg();
    const carrier = await addSandbox(key, "plain-void");
    const s = await createShipmentFor(key, { carrier_ids: [carrier.id] });
    await purchaseFor(key, s);
    const res = await cancelOf(key, s.id);
    expect(res.body.shipment).toMatchObject({ status: "cancelled", refund: null });
    expect((await stored(s.id)).refundCheckAfter).toBeNull();
  });
});

describe("settling it", () => {
  it("cancelling again asks the carrier: pending stays pending, then refunded settles it and asking stops", async () => {
    const { key, s } = await cancelledWithPendingRefund("200001");
    const check = checkAnswers({ status: "pending", reference: null }, { status: "refunded", reference: "200001" });

    const still = await cancelOf(key, s.id);
    expect(still.status).toBe(200);
    expect(still.body.shipment.refund).toMatchObject({ status: "pending", reference: "200001", settled_at: null });
    expect(still.body.shipment.refund.checked_at).not.toBeNull();
    expect(check.mock.calls[0]![1]).toMatchObject({
      tracking_number: s.tracking_number ?? (await show(key, s.id)).tracking_number,
      refund: { status: "pending", reference: "200001" },
    });
    const requested = (await stored(s.id)).refund!.requested_at;
    expect(check.mock.calls[0]![1].requested_at.getTime()).toBe(Date.parse(requested.replace(" ", "T")));
    expect(Number.isNaN(check.mock.calls[0]![1].requested_at.getTime())).toBe(false);

    const settled = await cancelOf(key, s.id);
    expect(settled.body.shipment.status).toBe("cancelled");
    expect(settled.body.shipment.refund).toMatchObject({ status: "refunded", reference: "200001" });
    expect(settled.body.shipment.refund.settled_at).not.toBeNull();
    expect((await stored(s.id)).refundCheckAfter).toBeNull();

    await cancelOf(key, s.id);
    expect(check).toHaveBeenCalledTimes(2);
    expect((await show(key, s.id)).refund.status).toBe("refunded");
  });

  it("a refusal settles it as refused", async () => {
    const { key, s } = await cancelledWithPendingRefund("200002");
    checkAnswers({ status: "refused", reference: "200002" });
    const res = await cancelOf(key, s.id);
    expect(res.body.shipment.refund).toMatchObject({ status: "refused" });
    expect(res.body.shipment.status).toBe("cancelled");
  });

  it("a check that fails keeps the refund pending, says so as a warning, and tries again within the hour", async () => {
    const { key, s } = await cancelledWithPendingRefund("200003");
    checkAnswers(new CarrierError("carrier_unavailable", "Sandbox is unavailable"));
    const res = await cancelOf(key, s.id);
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { code: string; level: string }) => [m.code, m.level])).toEqual([
      ["carrier_unavailable", "warning"],
    ]);
    expect(res.body.shipment.refund).toMatchObject({ status: "pending", checked_at: null });
    const after = (await stored(s.id)).refundCheckAfter!.getTime();
    expect(after).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(after).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
  });

  it("a carrier that cannot say: no check is planned, and cancelling again says so, as a warning", async () => {
    const { key, s } = await cancelledWithPendingRefund("200004", false);
    expect((await stored(s.id)).refundCheckAfter).toBeNull();
    const res = await cancelOf(key, s.id);
    expect(res.body.messages).toEqual([
      expect.objectContaining({
        carrier_name: "sandbox",
        carrier_id: "refunds-200004",
        code: "not_supported",
        level: "warning",
        message: expect.stringContaining("the carrier's API cannot say where it stands"),
      }),
    ]);
    expect(res.body.shipment.refund.status).toBe("pending");
    expect((await stored(s.id)).refundCheckAfter).toBeNull();
  });
});

describe("the background round", () => {
  it("checks only refunds that are due, in each shipment's own organization", async () => {
    const first = await cancelledWithPendingRefund("300001");
    const second = await cancelledWithPendingRefund("300002");
    const check = vi.fn(async (_ctx: unknown, req: RefundCheck) => ({
      data: { status: req.refund.reference === "300001" ? "refunded" : "pending", reference: null } as Refund,
      messages: [],
    }));
    adapter.checkRefund = check;
    const ctx = systemContext(await getDb(), "test");

    expect(await checkDueRefunds({ ctx, now: new Date() })).toEqual({ checked: 0, settled: 0, failed: 0 });
    expect(check).not.toHaveBeenCalled();

    const later = new Date(Date.now() + REFUND_RECHECK_MS + 60_000);
    const round = await checkDueRefunds({ ctx, now: later });
    expect(round.checked).toBeGreaterThanOrEqual(2);
    // Every other pending refund of this file answers pending: the one refunded is the one settled.
    expect(round.settled).toBe(1);
    expect(round.failed).toBe(0);
    expect(check.mock.calls.length).toBe(round.checked);
    expect((await show(first.key, first.s.id)).refund.status).toBe("refunded");
    expect((await show(second.key, second.s.id)).refund.status).toBe("pending");
    // The one still pending waits for its next turn.
    expect((await stored(second.s.id)).refundCheckAfter!.getTime()).toBe(later.getTime() + REFUND_RECHECK_MS);
  });

  it("a shipment that cannot be written does not hold the queue: it waits an hour, the others go on", async () => {
    const first = await cancelledWithPendingRefund("400001");
    const second = await cancelledWithPendingRefund("400002");
    const db = await getDb();
    // Every other due refund of this file first, so these two are the round's oldest.
    await db
      .update(shipments)
      .set({ refundCheckAfter: new Date(Date.now() - 60_000) })
      .where(eq(shipments.id, first.s.id));
    await db
      .update(shipments)
      .set({ refundCheckAfter: new Date(Date.now() - 30_000) })
      .where(eq(shipments.id, second.s.id));
    checkAnswers({ status: "refunded", reference: null }, { status: "refunded", reference: null });
    let broken = false;
    // The first write of the round fails, as a database that went away for a moment.
    const flaky = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "update" && !broken) {
          broken = true;
          return () => {
            throw new Error("connection lost");
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const now = new Date();
    const round = await checkDueRefunds({ ctx: systemContext(flaky, "test"), now });
    expect(round).toMatchObject({ failed: 1, settled: 1 });
    expect((await stored(first.s.id)).refund!.status).toBe("pending");
    expect((await stored(first.s.id)).refundCheckAfter!.getTime()).toBe(now.getTime() + 60 * 60_000);
    expect((await stored(second.s.id)).refund!.status).toBe("refunded");
  });
});
