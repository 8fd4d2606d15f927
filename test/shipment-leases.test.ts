import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { DELETE as deleteConnection } from "@/app/v1/connections/[id]/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { getDb } from "@/lib/db/client";
import { shipments } from "@/lib/db/schema";
import { claimShipment, renewClaim } from "@/lib/shipments/claim";
import { attemptWindow } from "@/lib/shipments/outcome-unknown";
import { call, makeOrg } from "./helpers";
import { addSandbox, createShipmentFor, purchaseFor } from "./factories";

/**
 * How long purchases and cancellations hold a shipment, and the attempt windows they write: the carrier's deadline
 * plus two minutes where a carrier is called, a minute where none is. The clock is faked (Date only) and the claim's
 * functions are passed through spies, so each claim's lease and clock are read as they were asked for.
 */

vi.mock("@/lib/shipments/claim", async (original) => {
  const real = await original<typeof import("@/lib/shipments/claim")>();
  return { ...real, claimShipment: vi.fn(real.claimShipment), renewClaim: vi.fn(real.renewClaim) };
});

const NOW = new Date("2031-03-04T05:06:07.890Z");
const DEADLINE_MS = 4_000;
const LEASE_MS = DEADLINE_MS + 120_000;

beforeAll(async () => {
  await getDb();
});
afterEach(() => {
  vi.useRealTimers();
  vi.mocked(claimShipment).mockClear();
  vi.mocked(renewClaim).mockClear();
});

function at(now: Date) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now);
}

/** The lease (ms) and the clock of each claim taken, in order. */
const claims = () => vi.mocked(claimShipment).mock.calls.map((c) => ({ op: c[2], from: c[3], lease: c[4], now: c[6] }));

async function setUp() {
  const { key } = await makeOrg();
  const carrier = await addSandbox(key, "timed", { deadline_ms: DEADLINE_MS });
  const s = await createShipmentFor(key, { carrier_ids: [carrier.id] });
  return { key, carrier, s };
}

const cancelOf = (key: string, id: string) =>
  call(cancel, "POST", `/v1/shipments/${id}/cancel`, { key, params: { id } });

describe("claim leases", () => {
  it("a purchase holds the shipment for the carrier's deadline plus two minutes, and its attempt says until when", async () => {
    const { key, carrier, s } = await setUp();
    at(NOW);
    expect((await purchaseFor(key, s)).status).toBe(200);
    expect(claims()).toEqual([{ op: "purchase", from: ["created"], lease: LEASE_MS, now: NOW }]);
    const set = vi.mocked(claimShipment).mock.calls[0]![5]!;
    expect(set.meta!.purchase_attempt).toEqual({
      ...attemptWindow(NOW, new Date(NOW.getTime() + LEASE_MS)),
      carrier_connection_id: carrier.id,
      carrier_name: "sandbox",
      carrier_id: "timed",
      selected_rate_id: s.rates[0]!.id,
      reference: null,
      label_type: "PDF",
      payment: { paid_by: "sender", currency: "USD", account_number: null },
    });
  });

  it("a purchase after a settled lost one renews its claim for a full lease from now", async () => {
    const { key, carrier, s } = await setUp();
    const attempt = {
      ...attemptWindow(new Date(NOW.getTime() - 3_600_000), new Date(NOW.getTime() - 3_000_000)),
      carrier_connection_id: carrier.id,
      carrier_name: "sandbox",
      carrier_id: "timed",
      selected_rate_id: s.rates[0]!.id,
      reference: null,
      label_type: "PDF",
      payment: { paid_by: "sender", currency: "USD", account_number: null },
    };
    const db = await getDb();
    await db
      .update(shipments)
      .set({ meta: { purchase_attempt: attempt } })
      .where(eq(shipments.id, s.id));
    at(NOW);
    const bought = await purchaseFor(key, s);
    expect(bought.status).toBe(200);
    expect(claims()).toEqual([{ op: "purchase", from: ["created"], lease: LEASE_MS, now: undefined }]);
    const [, , until, set] = vi.mocked(renewClaim).mock.calls[0]!;
    expect(until).toEqual(new Date(NOW.getTime() + LEASE_MS));
    expect(set.meta!.purchase_attempt).toMatchObject(attemptWindow(NOW, until));
  });

  it("cancelling a created shipment holds it for a minute; a purchased one for the carrier's deadline plus two minutes", async () => {
    const { key, s } = await setUp();
    const other = await createShipmentFor(key, { carrier_ids: [s.rates[0]!.carrier_ref] });
    expect((await purchaseFor(key, s)).status).toBe(200);
    vi.mocked(claimShipment).mockClear();
    // The label was bought moments ago: the void is asked now, before the sandbox would count it picked up.
    const now = new Date(Date.now());
    at(now);
    expect((await cancelOf(key, other.id)).status).toBe(200);
    expect((await cancelOf(key, s.id)).status).toBe(200);
    expect(claims()).toEqual([
      { op: "cancel", from: ["created"], lease: 60_000, now: undefined },
      { op: "cancel", from: ["purchased"], lease: LEASE_MS, now },
    ]);
    const set = vi.mocked(claimShipment).mock.calls[1]![5]!;
    expect(set.meta!.cancel_attempt).toEqual(attemptWindow(now, new Date(now.getTime() + LEASE_MS)));
  });

  it("cancelling a lost purchase holds the shipment for its carrier's lease, or a minute once that connection is gone", async () => {
    const { key, carrier } = await setUp();
    const lost = async () => {
      const s = await createShipmentFor(key, { carrier_ids: [carrier.id] });
      const attempt = {
        ...attemptWindow(new Date(NOW.getTime() - 3_600_000), new Date(NOW.getTime() - 3_000_000)),
        carrier_connection_id: carrier.id,
        carrier_name: "sandbox",
        carrier_id: "timed",
        selected_rate_id: s.rates[0]!.id,
        reference: null,
        label_type: "PDF",
        payment: { paid_by: "sender", currency: "USD", account_number: null },
      };
      const db = await getDb();
      await db
        .update(shipments)
        .set({ meta: { purchase_attempt: attempt } })
        .where(eq(shipments.id, s.id));
      return s;
    };
    const first = await lost();
    const second = await lost();
    at(NOW);
    expect((await cancelOf(key, first.id)).status).toBe(200);
    const gone = await call(deleteConnection, "DELETE", `/v1/connections/${carrier.id}`, {
      key,
      params: { id: carrier.id },
    });
    expect(gone.status).toBeLessThan(300);
    expect((await cancelOf(key, second.id)).status).toBe(200);
    expect(claims().map((c) => c.lease)).toEqual([LEASE_MS, 60_000]);
  });
});
