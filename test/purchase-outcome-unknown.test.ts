import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { GET as listShipments } from "@/app/v1/shipments/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { withTransaction } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { carrierLedger, labels, shipments } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { Shipment } from "@/lib/schemas/shipment";
import { ClaimLostError } from "@/lib/shipments/claim";
import { recordPurchase } from "@/lib/shipments/record-purchase";
import { recordRetryPolicy } from "@/lib/shipments/record-retries";
import { moveShipmentsWithTracking } from "@/lib/shipments/status";
import { atDeadline, fakeTimeouts } from "./clock";
import { call, makeOrg, orgCtx } from "./helpers";
import { addSandbox, claimStateOf, createShipmentFor, purchaseFor, purchasePaced } from "./factories";

/**
 * docs/api.md, "When an answer is lost": a purchase or a void that reached the carrier without its outcome being
 * recorded (a timeout, or the process dying between the carrier's answer and the commit) never leads to a second
 * label without the client's say-so, and a cancellation settles. Time passes by moving the clock, not by sleeping: a
 * call that ends at its deadline runs on fake timeouts (`pastDeadline`), and claims and locks expire by moving `Date`
 * (`anHourLater`). The sandbox's books (carrier_ledger) say what the carrier really sold.
 */

// The crash: recording fails after the carrier sold. A pass-through spy everywhere else.
vi.mock("@/lib/shipments/record-purchase", async (original) => {
  const real = await original<typeof import("@/lib/shipments/record-purchase")>();
  return { ...real, recordPurchase: vi.fn(real.recordPurchase) };
});

// How many times the sandbox has held a call until its caller gave up: its answer lost, or slower than the deadline.
const heldCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/carriers/sandbox/faults", async (original) => {
  const real = await original<typeof import("@/lib/carriers/sandbox/faults")>();
  return {
    ...real,
    loseAnswer: (...args: Parameters<typeof real.loseAnswer>) => {
      if (args[1].lostAnswers.has(args[0])) heldCalls.count++;
      return real.loseAnswer(...args);
    },
    simulatedLatency: (...args: Parameters<typeof real.simulatedLatency>) => {
      if (args[0] > 0) heldCalls.count++;
      return real.simulatedLatency(...args);
    },
  };
});

/** The sandbox connections' deadline in this file (a lost answer ends there). */
const DEADLINE_MS = 300;

/**
 * A call that ends at the carrier's deadline, on fake timeouts: the clock stands still until the sandbox holds the
 * call, then moves by the deadline at once. Comes before `anHourLater` in a test (it puts the real timers back).
 */
async function pastDeadline<T>(work: () => Promise<T>, deadlineMs = DEADLINE_MS): Promise<T> {
  if (vi.isFakeTimers()) throw new Error("pastDeadline fakes the timeouts itself: call it before anHourLater");
  const held = heldCalls.count;
  fakeTimeouts();
  try {
    return await atDeadline(work(), () => heldCalls.count > held, deadlineMs);
  } finally {
    vi.useRealTimers();
  }
}

const realDelays = recordRetryPolicy.delaysMs;
beforeEach(() => {
  recordRetryPolicy.delaysMs = realDelays.map(() => 0);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.mocked(recordPurchase).mockReset();
  vi.useRealTimers();
  recordRetryPolicy.delaysMs = realDelays;
});

/** Moves the clock past every claim and idempotency lock a test made (they last minutes, never an hour). */
function anHourLater() {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + 60 * 60 * 1000);
}

const dbDown = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

/** The carrier's books for one connection: every label it sold, and whether it was voided. */
async function sales(orgId: string, connectionId: string) {
  const db = await getDb();
  return db
    .select({ trackingNumber: carrierLedger.trackingNumber, voidedAt: carrierLedger.voidedAt })
    .from(carrierLedger)
    .where(and(eq(carrierLedger.orgId, orgId), eq(carrierLedger.connectionId, connectionId)));
}

/** A connection's config changed between steps (a carrier that starts or stops losing answers). */
const configureConnection = (key: string, id: string, config: Record<string, unknown>) =>
  call(patchConnection, "PATCH", `/v1/connections/${id}`, { key, params: { id }, body: { config } });

/** A shipment whose purchase timed out before the carrier sold anything; the carrier answers promptly again. */
async function timedOutBeforeSale() {
  const { key, orgId } = await makeOrg();
  const slow = await addSandbox(key, "slow");
  const s = await createShipmentFor(key, { carrier_ids: ["slow"] });
  await configureConnection(key, slow.id, { latency_ms: 2000, deadline_ms: 100 });
  expect((await pastDeadline(() => purchaseFor(key, s), 100)).status).toBe(424);
  await configureConnection(key, slow.id, {});
  return { key, orgId, slow, s };
}

const codes = (messages: { code: string; level: string }[]) => messages.map((m) => [m.code, m.level]);

/** The carrier operations logged (one line each), as [operation, outcome]. */
function carrierOperations(info: { mock: { calls: unknown[][] } }) {
  return info.mock.calls
    .map((c) => c[0] as Record<string, unknown>)
    .filter((l) => l.msg === "carrier_operation")
    .map((l) => [l.operation, l.outcome]);
}

const SANDBOX_DOWN = "Sandbox service temporarily unavailable. Please try again later.";

async function show(key: string, id: string) {
  const res = await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } });
  return Shipment.strict().parse(res.body);
}

describe("a purchase whose answer was lost", () => {
  it("sold, then timed out: 424 purchase_outcome_unknown; the retry finds that label and records it, buying nothing", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id], reference: "ORDER-42" });
    const ship = vi.spyOn(sandboxAdapter, "ship");

    const first = await pastDeadline(() => purchaseFor(key, s));
    expect(first.status).toBe(424);
    expect(codes(first.body.messages)).toEqual([
      ["carrier_timeout", "error"],
      ["purchase_outcome_unknown", "error"],
    ]);
    const [sold] = await sales(orgId, lossy.id);
    expect(sold).toBeDefined();

    const stored = await show(key, s.id);
    expect(stored).toMatchObject({ status: "created", label: null, tracking_number: null });
    expect(stored.meta.purchase_attempt).toMatchObject({
      carrier_connection_id: lossy.id,
      selected_rate_id: s.rates[0]!.id,
      reference: "ORDER-42",
      label_type: "PDF",
    });
    expect(codes(stored.messages)).toContainEqual(["purchase_outcome_unknown", "error"]);
    const { started_at } = stored.meta.purchase_attempt as { started_at: string };

    const retry = await purchaseFor(key, s);
    expect(retry.status).toBe(200);
    expect(ship).toHaveBeenCalledTimes(1);
    expect(retry.body.messages).toEqual([
      {
        carrier_name: "sandbox",
        carrier_id: "lossy",
        code: "purchase_recovered",
        message: `The label bought by the purchase attempt of ${started_at}, whose answer was lost, was found at sandbox under reference ORDER-42 and recorded; no label was bought again. It was bought with that attempt's rate, payment and reference.`,
        level: "info",
        details: { tracking_number: sold!.trackingNumber, started_at },
      },
    ]);
    expect(retry.body.shipment).toMatchObject({
      status: "purchased",
      tracking_number: sold!.trackingNumber,
      reference: "ORDER-42",
    });
    expect(retry.body.shipment.label).not.toBeNull();
    expect(retry.body.shipment.meta).not.toHaveProperty("purchase_attempt");
    expect(await sales(orgId, lossy.id)).toHaveLength(1);
  });

  it("timed out before any sale: 409 while the carrier may still be at it, then buys once that is past", async () => {
    const { key, orgId, slow, s } = await timedOutBeforeSale();
    const ship = vi.spyOn(sandboxAdapter, "ship");

    const early = await purchaseFor(key, s);
    expect(early.status).toBe(409);
    expect(early.body.errors[0]).toMatchObject({
      code: "purchase_outcome_unknown",
      message: expect.stringMatching(/may still be handling the request until/),
    });
    expect(ship).not.toHaveBeenCalled();

    anHourLater();
    const later = await purchaseFor(key, s);
    expect(later.status).toBe(200);
    expect(later.body.shipment.status).toBe("purchased");
    // Known safe to buy: nothing to warn about.
    expect(later.body.messages).toEqual([]);
    expect(ship).toHaveBeenCalledTimes(1);
    expect(await sales(orgId, slow.id)).toHaveLength(1);
  });

  it("timed out before any sale, then a batch's paced purchase: settled, it waits holding nothing and buys once", async () => {
    const { orgId, slow, s } = await timedOutBeforeSale();
    const ship = vi.spyOn(sandboxAdapter, "ship");
    anHourLater();
    const seen: unknown[] = [];
    const out = await purchasePaced(orgId, s, async (_connection, steps) => {
      // The lookup that settles the lost attempt waits for a slot of its own, with nothing to run once it comes.
      if (!steps) return void seen.push("lookup");
      seen.push(await claimStateOf(s.id));
      await steps.last!();
      seen.push(await claimStateOf(s.id));
    });
    expect(out.shipment.status).toBe("purchased");
    // The lost attempt settled (nothing sold), its claim given back; the wait's last step claims afresh.
    expect(seen).toEqual(["lookup", { pending: null, attempt: false }, { pending: "purchase", attempt: true }]);
    expect(ship).toHaveBeenCalledTimes(1);
    expect(await sales(orgId, slow.id)).toHaveLength(1);
  });

  it("timed out before any sale: cancel waits (409) while the carrier may still sell, then cancels for sure", async () => {
    const { key, s } = await timedOutBeforeSale();

    const cancelOf = () => call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    const early = await cancelOf();
    expect(early.status).toBe(409);
    expect(early.body.errors[0]).toMatchObject({
      code: "state_conflict",
      message: expect.stringMatching(/Cancel again after/),
    });
    expect((await show(key, s.id)).meta).toHaveProperty("purchase_attempt");

    anHourLater();
    const later = await cancelOf();
    expect(later.status).toBe(200);
    expect(later.body.shipment).toMatchObject({ status: "cancelled" });
    expect(later.body.messages).toEqual([]);
  });

  it("a crash after the sale where the carrier cannot be asked: 409 with any key, never the carrier; confirm_rebuy buys", async () => {
    const { key, orgId } = await makeOrg();
    const blind = await addSandbox(key, "blind", { fail_operations: ["lookup", "void"] });
    const s = await createShipmentFor(key, { carrier_ids: [blind.id] });
    const ship = vi.spyOn(sandboxAdapter, "ship");
    // The process "dies" after the carrier sold: recording fails, and so does voiding the label.
    vi.mocked(recordPurchase).mockRejectedValue(dbDown());
    const send = (idempotencyKey: string, extra: Record<string, unknown> = {}) =>
      call(purchase, "POST", `/v1/shipments/${s.id}/purchase`, {
        key,
        params: { id: s.id },
        headers: { "Idempotency-Key": idempotencyKey },
        body: { selected_rate_id: s.rates[0]!.id, ...extra },
      });
    // A server fault frees the key (a real crash leaves it locked until it expires: test/crash-purchase.test.ts).
    expect((await send("buy-1")).status).toBe(503);
    vi.mocked(recordPurchase).mockReset();
    expect(ship).toHaveBeenCalledTimes(1);

    // While the claim lasts: in progress.
    const holding = await purchaseFor(key, s);
    expect(holding.body.errors[0]).toMatchObject({
      code: "state_conflict",
      message: expect.stringMatching(/held until/),
    });

    anHourLater();
    for (const idempotencyKey of ["buy-1", "buy-2"]) {
      const res = await send(idempotencyKey);
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({
        code: "purchase_outcome_unknown",
        message: expect.stringMatching(/confirm_rebuy.*looking it up failed/s),
      });
    }
    expect(ship).toHaveBeenCalledTimes(1);
    expect(await sales(orgId, blind.id)).toHaveLength(1);

    const confirmed = await send("buy-3", { confirm_rebuy: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.shipment.status).toBe("purchased");
    expect(codes(confirmed.body.messages)).toEqual([["purchase_outcome_unknown", "warning"]]);
    expect(confirmed.body.messages[0].message).toMatch(/void it there/);
    // The client decided: two labels exist at the carrier, the first one theirs to void.
    expect(ship).toHaveBeenCalledTimes(2);
    expect(await sales(orgId, blind.id)).toHaveLength(2);
  });

  it("a carrier that cannot look labels up: 409 naming that, and cancel warns to check the account", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id] });
    expect((await pastDeadline(() => purchaseFor(key, s))).status).toBe(424);
    // The sandbox without its lookup: what a carrier that declares no "lookup" capability looks like to a purchase.
    const findShipments = sandboxAdapter.findShipments;
    Object.assign(sandboxAdapter, { findShipments: undefined });
    try {
      anHourLater();
      const res = await purchaseFor(key, s);
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({
        code: "purchase_outcome_unknown",
        message: expect.stringMatching(/sandbox cannot look labels up by reference/),
      });
      const cancelled = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
      expect(cancelled.body.shipment.status).toBe("cancelled");
      expect(codes(cancelled.body.messages)).toEqual([["purchase_outcome_unknown", "warning"]]);
    } finally {
      Object.assign(sandboxAdapter, { findShipments });
    }
    expect((await sales(orgId, lossy.id))[0]!.voidedAt).toBeNull();
  });

  it("several labels found under the reference: 409 listing them, and cancel voids them all", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy");
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id] });
    const configure = (config: Record<string, unknown>) => configureConnection(key, lossy.id, config);
    await configure({ lost_answers: ["ship"], fail_operations: ["lookup"], deadline_ms: DEADLINE_MS });
    expect((await pastDeadline(() => purchaseFor(key, s))).status).toBe(424);
    // The client re-buys without being able to check, and that answer is lost too.
    expect((await pastDeadline(() => purchaseFor(key, s, { confirm_rebuy: true }))).status).toBe(424);
    await configure({});
    const sold = await sales(orgId, lossy.id);
    expect(sold).toHaveLength(2);

    const res = await purchaseFor(key, s);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ code: "purchase_outcome_unknown" });
    const listed = (numbers: string[]) =>
      `sandbox holds 2 labels with reference ${s.id} sold since then (${numbers.join(", ")})`;
    const numbers = sold.map((l) => l.trackingNumber);
    const message: string = res.body.errors[0].message;
    expect(message.includes(listed(numbers)) || message.includes(listed([...numbers].reverse()))).toBe(true);

    const cancelled = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(cancelled.body.shipment.status).toBe("cancelled");
    expect(codes(cancelled.body.messages)).toEqual([
      ["purchase_recovered", "info"],
      ["purchase_recovered", "info"],
    ]);
    expect((await sales(orgId, lossy.id)).every((l) => l.voidedAt !== null)).toBe(true);
  });

  it("a reference shared by two shipments: each settles with its own label, never the other's", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const first = await createShipmentFor(key, { carrier_ids: [lossy.id], reference: "ORDER-7" });
    const second = await createShipmentFor(key, { carrier_ids: [lossy.id], reference: "ORDER-7" });
    expect((await pastDeadline(() => purchaseFor(key, first))).status).toBe(424);
    const [firstLabel] = await sales(orgId, lossy.id);
    expect((await pastDeadline(() => purchaseFor(key, second))).status).toBe(424);
    const secondLabel = (await sales(orgId, lossy.id)).find((l) => l.trackingNumber !== firstLabel!.trackingNumber);

    // Cancelling the first voids its own label only; the second's is still good, and its retry records it.
    const cancelled = await call(cancel, "POST", `/v1/shipments/${first.id}/cancel`, {
      key,
      params: { id: first.id },
    });
    expect(cancelled.body.shipment.status).toBe("cancelled");
    const books = new Map((await sales(orgId, lossy.id)).map((l) => [l.trackingNumber, l.voidedAt]));
    expect(books.get(firstLabel!.trackingNumber)).not.toBeNull();
    expect(books.get(secondLabel!.trackingNumber)).toBeNull();

    const ship = vi.spyOn(sandboxAdapter, "ship");
    const retry = await purchaseFor(key, second);
    expect(retry.status).toBe(200);
    expect(retry.body.tracking_number).toBe(secondLabel!.trackingNumber);
    expect(ship).not.toHaveBeenCalled();
  });

  it("cancelling voids the label the lost purchase bought, found at the carrier", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id] });
    expect((await pastDeadline(() => purchaseFor(key, s))).status).toBe(424);
    const [sold] = await sales(orgId, lossy.id);

    const info = vi.spyOn(log(), "info");
    // A purchase sent while the carrier is being asked finds the shipment held by the cancellation.
    const findShipments = sandboxAdapter.findShipments!.bind(sandboxAdapter);
    let meanwhile: Awaited<ReturnType<typeof purchaseFor>> | undefined;
    vi.spyOn(sandboxAdapter, "findShipments").mockImplementation(async (actx, req) => {
      meanwhile = await purchaseFor(key, s);
      return findShipments(actx, req);
    });
    const res = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(meanwhile!.status).toBe(409);
    expect(meanwhile!.body.errors[0].message).toMatch(/^A cancellation of this shipment is in progress \(held until /);
    expect(res.status).toBe(200);
    expect(res.body.shipment).toMatchObject({ status: "cancelled", label: null });
    expect(res.body.shipment.meta).not.toHaveProperty("purchase_attempt");
    expect(res.body.messages).toEqual([
      {
        carrier_name: "sandbox",
        carrier_id: "lossy",
        code: "purchase_recovered",
        level: "info",
        message: `Voided label ${sold!.trackingNumber}, bought by an earlier purchase attempt whose answer was lost.`,
        details: { tracking_number: sold!.trackingNumber },
      },
    ]);
    expect(carrierOperations(info)).toEqual([
      ["lookup", "ok"],
      ["void", "ok"],
    ]);
    expect((await sales(orgId, lossy.id))[0]!.voidedAt).not.toBeNull();
  });

  it("cancelling when the carrier cannot look the label up cancels here and says to check the carrier account", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", {
      lost_answers: ["ship"],
      fail_operations: ["lookup"],
      deadline_ms: DEADLINE_MS,
    });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id], reference: "ORDER-9" });
    expect((await pastDeadline(() => purchaseFor(key, s))).status).toBe(424);
    const { started_at } = (await show(key, s.id)).meta.purchase_attempt as { started_at: string };
    const res = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("cancelled");
    expect(res.body.messages).toEqual([
      {
        carrier_name: "sandbox",
        carrier_id: "lossy",
        code: "purchase_outcome_unknown",
        message: `Cancelled here only: an earlier purchase attempt (${started_at}) lost its answer and looking it up failed (${SANDBOX_DOWN}). Check the carrier account for a label with reference ORDER-9 and void it there.`,
        level: "warning",
        details: {},
      },
    ]);
    // Honest about it: the label is still alive at the carrier.
    expect((await sales(orgId, lossy.id))[0]!.voidedAt).toBeNull();
  });

  it("a purchase claim left by a process that died before attempts were recorded: 409, and cancel warns", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    const db = await getDb();
    await db
      .update(shipments)
      .set({ pendingOperation: "purchase", pendingUntil: new Date(Date.now() - 1000) })
      .where(eq(shipments.id, s.id));
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const res = await purchaseFor(key, s);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      code: "purchase_outcome_unknown",
      message: `An earlier purchase of this shipment did not finish, and its outcome is unknown: the attempt's details were not recorded. Check the carrier account for a label with reference ${s.id}, then send the purchase again with "confirm_rebuy": true to buy a label anyway, or cancel the shipment.`,
    });
    expect(ship).not.toHaveBeenCalled();
    const cancelled = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(cancelled.body.shipment.status).toBe("cancelled");
    expect(cancelled.body.messages).toEqual([
      {
        carrier_name: "",
        carrier_id: "",
        code: "purchase_outcome_unknown",
        message: `Cancelled here only: an earlier purchase attempt lost its answer and the attempt's details were not recorded. Check the carrier account for a label with reference ${s.id} and void it there.`,
        level: "warning",
        details: {},
      },
    ]);
  });

  it("cancelling where the carrier cannot void the label found: cancelled here, with a warning to void it there", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id] });
    expect((await pastDeadline(() => purchaseFor(key, s))).status).toBe(424);
    const [sold] = await sales(orgId, lossy.id);
    const voidLabel = sandboxAdapter.void;
    Object.assign(sandboxAdapter, { void: undefined });
    let res;
    try {
      res = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    } finally {
      Object.assign(sandboxAdapter, { void: voidLabel });
    }
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("cancelled");
    expect(res.body.messages).toEqual([
      {
        carrier_name: "sandbox",
        carrier_id: "lossy",
        code: "purchase_recovered",
        message: `Label ${sold!.trackingNumber}, bought by an earlier purchase attempt whose answer was lost, cannot be voided through the carrier's API: void it in the carrier account.`,
        level: "warning",
        details: { tracking_number: sold!.trackingNumber },
      },
    ]);
    expect((await sales(orgId, lossy.id))[0]!.voidedAt).toBeNull();
  });

  it("cancelling where the carrier refuses to void the label found: 424, the shipment stays created with its attempt", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id] });
    expect((await pastDeadline(() => purchaseFor(key, s))).status).toBe(424);
    await configureConnection(key, lossy.id, { fail_operations: ["void"] });
    const res = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(res.status).toBe(424);
    expect(res.body.messages).toEqual([
      expect.objectContaining({ code: "carrier_unavailable", message: SANDBOX_DOWN }),
    ]);
    const stored = await show(key, s.id);
    expect(stored.status).toBe("created");
    expect(stored.meta).toHaveProperty("purchase_attempt");
    expect((await sales(orgId, lossy.id))[0]!.voidedAt).toBeNull();
  });

  it("the label found is recorded with the customs the lost purchase sent, not the shipment's", async () => {
    const { key } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const toronto = {
      person_name: "Chloé Tremblay",
      address_line1: "290 Bremner Blvd",
      city: "Toronto",
      state_code: "ON",
      postal_code: "M5V 3L9",
      country_code: "CA",
      phone_number: "+1 416 555 0199",
    };
    const customsWith = (description: string) => ({
      content_type: "merchandise",
      incoterm: "DAP",
      commodities: [
        {
          description,
          quantity: 2,
          value_amount: 15,
          value_currency: "USD",
          weight: 0.25,
          weight_unit: "KG",
          hs_code: "610910",
          origin_country: "US",
        },
      ],
    });
    const s = await createShipmentFor(key, {
      carrier_ids: [lossy.id],
      recipient: toronto,
      customs: customsWith("Stored mug"),
    });
    expect((await pastDeadline(() => purchaseFor(key, s, { customs: customsWith("Cotton T-shirt") }))).status).toBe(
      424,
    );
    await configureConnection(key, lossy.id, {});
    const retry = await purchaseFor(key, s);
    expect(retry.status).toBe(200);
    expect(codes(retry.body.messages)).toEqual([["purchase_recovered", "info"]]);
    expect(retry.body.shipment.customs).toMatchObject({ commodities: [{ description: "Cotton T-shirt" }] });
    expect((await show(key, s.id)).customs).toMatchObject({ commodities: [{ description: "Cotton T-shirt" }] });
    // The invoice the carrier sold with that label comes from its books and is stored with it.
    expect(retry.body.shipment.documents).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^doc_/), type: "commercial_invoice", format: "PDF" }),
    ]);
    expect((await show(key, s.id)).documents).toEqual(retry.body.shipment.documents);
  });

  it("the label found cannot be recorded: taken over meanwhile is a 409, the database away a 503; the attempt stays", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id] });
    expect((await pastDeadline(() => purchaseFor(key, s))).status).toBe(424);
    await configureConnection(key, lossy.id, {});
    const ship = vi.spyOn(sandboxAdapter, "ship");

    vi.mocked(recordPurchase).mockRejectedValueOnce(new ClaimLostError());
    const overtaken = await purchaseFor(key, s);
    expect(overtaken.status).toBe(409);
    expect(overtaken.body.errors[0]).toMatchObject({
      code: "state_conflict",
      message: "Another purchase or cancellation took this shipment over; fetch it and retry.",
    });

    vi.mocked(recordPurchase).mockRejectedValue(dbDown());
    const away = await purchaseFor(key, s);
    expect(away.status).toBe(503);
    vi.mocked(recordPurchase).mockReset();

    const stored = await show(key, s.id);
    expect(stored).toMatchObject({ status: "created", label: null });
    expect(stored.meta).toHaveProperty("purchase_attempt");
    expect(ship).not.toHaveBeenCalled();
    expect((await sales(orgId, lossy.id))[0]!.voidedAt).toBeNull();
  });

  it("confirm_rebuy warns with the attempt's carrier, start and reference (the one the purchase sent)", async () => {
    const { key } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["ship"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id], reference: "SHIPMENT-REF" });
    expect((await pastDeadline(() => purchaseFor(key, s, { reference: "PURCHASE-REF" }))).status).toBe(424);
    const { started_at } = (await show(key, s.id)).meta.purchase_attempt as { started_at: string };
    await configureConnection(key, lossy.id, { fail_operations: ["lookup"] });
    const res = await purchaseFor(key, s, { confirm_rebuy: true });
    expect(res.status).toBe(200);
    expect(res.body.messages).toEqual([
      {
        carrier_name: "sandbox",
        carrier_id: "lossy",
        code: "purchase_outcome_unknown",
        message: `Bought again as confirmed (confirm_rebuy), although the earlier purchase attempt's outcome is unknown (looking it up failed (${SANDBOX_DOWN})). If the carrier account shows an earlier label with reference PURCHASE-REF, void it there.`,
        level: "warning",
        details: { started_at },
      },
    ]);
  });

  it("confirm_rebuy after a purchase claim that recorded no attempt: the warning names no carrier", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key);
    const db = await getDb();
    await db
      .update(shipments)
      .set({ pendingOperation: "purchase", pendingUntil: new Date(Date.now() - 1000) })
      .where(eq(shipments.id, s.id));
    const res = await purchaseFor(key, s, { confirm_rebuy: true });
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("purchased");
    expect(res.body.messages).toEqual([
      {
        carrier_name: "",
        carrier_id: "",
        code: "purchase_outcome_unknown",
        message: `Bought again as confirmed (confirm_rebuy), although the earlier purchase attempt's outcome is unknown (the attempt's details were not recorded). If the carrier account shows an earlier label with reference ${s.id}, void it there.`,
        level: "warning",
        details: {},
      },
    ]);
  });
});

describe("a cancellation whose answer was lost", () => {
  it("voided, then timed out: 424; the label is withheld; the retry settles it (already voided) and ends cancelled", async () => {
    const { key, orgId } = await makeOrg();
    const lossy = await addSandbox(key, "lossy", { lost_answers: ["void"], deadline_ms: DEADLINE_MS });
    const s = await createShipmentFor(key, { carrier_ids: [lossy.id] });
    expect((await purchaseFor(key, s)).status).toBe(200);

    const first = await pastDeadline(() =>
      call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } }),
    );
    expect(first.status).toBe(424);
    expect(codes(first.body.messages)).toEqual([
      ["carrier_timeout", "error"],
      ["cancel_outcome_unknown", "error"],
    ]);
    const stored = await show(key, s.id);
    expect(stored).toMatchObject({ status: "purchased", label: null });
    expect(stored.meta).toHaveProperty("cancel_attempt");
    // The void's own messages are kept with the shipment beside the attempt's, until a retry settles it.
    expect(codes(stored.messages)).toEqual([
      ["carrier_timeout", "error"],
      ["cancel_outcome_unknown", "error"],
    ]);
    const file = await call(label, "GET", `/v1/shipments/${s.id}/label`, { key, params: { id: s.id } });
    expect(file.status).toBe(409);

    await call(patchConnection, "PATCH", `/v1/connections/${lossy.id}`, {
      key,
      params: { id: lossy.id },
      body: { config: {} },
    });
    const retry = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(retry.status).toBe(200);
    expect(retry.body.shipment).toMatchObject({ status: "cancelled", label: null });
    expect(codes(retry.body.messages)).toEqual([["SBX_ALREADY_VOIDED", "info"]]);
    expect(retry.body.shipment.meta).not.toHaveProperty("cancel_attempt");
    expect(await sales(orgId, lossy.id)).toEqual([expect.objectContaining({ voidedAt: expect.any(Date) })]);
  });

  it("a cancel claim left by a process that died after the void: tracking does not move it, and the retry finishes", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key);
    const bought = (await purchaseFor(key, s)).body.shipment;
    const db = await getDb();
    // What the dead process left: the carrier voided the label, the shipment holds an expired cancel claim.
    await db
      .update(carrierLedger)
      .set({ voidedAt: new Date() })
      .where(eq(carrierLedger.trackingNumber, bought.tracking_number));
    const [row] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    await db
      .update(shipments)
      .set({
        pendingOperation: "cancel",
        pendingUntil: new Date(Date.now() - 1000),
        meta: { ...row!.meta, cancel_attempt: { started_at: "2026-01-01 00:00:00.000000+00:00", settled_by: "x" } },
      })
      .where(eq(shipments.id, s.id));

    // The voided label would still "move" at a carrier that tracks it; the shipment waits for its cancellation.
    const moved = await withTransaction(await orgCtx(orgId), ({ db: tx }) =>
      moveShipmentsWithTracking(tx, [{ orgId, shipmentId: s.id, to: "in_transit" }], new Date()),
    );
    expect(moved.transitions).toEqual([]);
    expect((await show(key, s.id)).label).toBeNull();

    const res = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("cancelled");
    expect(codes(res.body.messages)).toEqual([["SBX_ALREADY_VOIDED", "info"]]);
  });
});

describe("a cancelled shipment hands out no label", () => {
  it("label is null in the cancel answer, GET and the list; the file answers 409; the bytes stay stored", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key, { reference: "NO-LABEL" });
    expect((await purchaseFor(key, s)).body.shipment.label).not.toBeNull();
    const res = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(res.body.shipment).toMatchObject({ status: "cancelled", label: null });
    expect((await show(key, s.id)).label).toBeNull();
    const list = await call(listShipments, "GET", "/v1/shipments", { key, query: { reference: "NO-LABEL" } });
    expect(list.body.results).toEqual([expect.objectContaining({ id: s.id, status: "cancelled", label: null })]);
    const file = await call(label, "GET", `/v1/shipments/${s.id}/label`, { key, params: { id: s.id } });
    expect(file.status).toBe(409);
    const db = await getDb();
    expect(await db.select().from(labels).where(eq(labels.shipmentId, s.id))).toHaveLength(1);
  });
});
