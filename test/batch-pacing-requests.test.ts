import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { POST as purchase } from "@/app/v1/batches/[id]/purchase/route";
import { POST as cancel } from "@/app/v1/batches/[id]/cancel/route";
import { runBatch } from "@/lib/batches/run-batch";
import type { DomainContext } from "@/lib/context";
import { fetchRates } from "@/lib/rates/fetch-rates";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { rateRequest, usShipper } from "./factories";
import { call, makeOrg, orgCtx, systemCtx } from "./helpers";

/**
 * A batch's budget counts every request a carrier sees (docs/api.md, "Batches"), not only the first of each call: an
 * OAuth token renewal and a retry after a 429 wait for a slot too. Against the emulator's FedEx, whose rating is a
 * token request and then the rate request.
 */

const emulator = useCarrierEmulator();
const requests = () => emulator.current.calls.filter((c) => c.operation === "token" || c.operation === "rate").length;

afterEach(() => vi.restoreAllMocks());

async function fedex(config: Record<string, unknown> = {}) {
  const org = await makeOrg();
  const conn = await addConnection(org.key, {
    carrier_name: "fedex",
    carrier_id: "fedex-paced",
    credentials: FEDEX_CREDENTIALS,
    config: { label_stock: "4x6", pickup_type: "DROPOFF_AT_FEDEX_LOCATION", ...config },
  });
  return { ...org, conn };
}

/** A batch of one row for the FedEx connection, rated and ready to buy. */
async function readyBatch(key: string): Promise<string> {
  const csv = [
    "order_number,name,address_line1,city,state_code,postal_code,country_code,weight,service",
    "SO-1,Recipient One,1 Elm Street,Austin,TX,78701,US,2,",
  ].join("\n");
  const created = await call(createBatch, "POST", "/v1/batches", {
    key,
    body: {
      csv,
      shipper: usShipper,
      mapping: { reference: "order_number", "recipient.person_name": "name" },
      rate_policy: { kind: "cheapest", carrier_id: "fedex-paced" },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const ctx = await systemCtx();
  while ((await runBatch({ ctx, batchId: id, maxDurationMs: 60_000 })).more);
  return id;
}

const ratesInput = { ...rateRequest(), carrier_ids: ["fedex-paced"], services: [], options: {} } as never;

describe("a paced carrier call", () => {
  it("takes a slot for each request FedEx sees: the token, the rate, its retry after a 429", async () => {
    const { orgId } = await fedex();
    const slots: unknown[] = [];
    const ctx: DomainContext = {
      ...(await orgCtx(orgId)),
      paceCarrier: async (_connection, steps) => void slots.push(steps ?? null),
    };
    emulator.current.set("fedex", { fault: { kind: "rate_limited", retry_after_s: 0 }, fault_times: 1 });

    const first = await fetchRates({ ctx, input: ratesInput });
    expect(first.rates.length).toBeGreaterThan(0);
    expect(requests()).toBe(3);
    // The verb's own wait, then one for each request after the first: nothing to run once the slot comes, and no
    // longer a wait than the call's deadline (10 s) leaves room for.
    const further = { withinMs: expect.toSatisfy((ms: number) => ms > 0 && ms < 10_000) };
    expect(slots).toEqual([null, further, further]);

    // The token is cached now: one request, one slot.
    await fetchRates({ ctx, input: ratesInput });
    expect(requests()).toBe(4);
    expect(slots).toHaveLength(4);
  });

  it(
    "a purchase's retry whose slot would come after its deadline goes at once: bought, never left unknown",
    { timeout: 120_000 },
    async () => {
      // One call in 7 s, a 5 s deadline: the retry's slot is 7 s after the first ship request's.
      const { key } = await fedex({ batch_calls_per_second: 0.15, deadline_ms: 5_000 });
      const id = await readyBatch(key);
      expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);
      emulator.current.set("fedex", {
        fault: { kind: "rate_limited", retry_after_s: 0 },
        fault_operations: ["ship"],
        fault_times: 1,
      });
      const ctx = await systemCtx();
      while ((await runBatch({ ctx, batchId: id, maxDurationMs: 60_000 })).more);

      expect(emulator.current.calls.filter((c) => c.operation === "ship")).toHaveLength(2);
      const batch = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
      expect(batch.body.state).toBe("completed");
      expect(batch.body.counts.purchased).toBe(1);
    },
  );

  it(
    "a purchase's retry after a 429 waits for a slot, and a cancel that landed meanwhile does not stop it",
    { timeout: 120_000 },
    async () => {
      const { key } = await fedex({ batch_calls_per_second: 1 });
      const id = await readyBatch(key);
      const ctx = await systemCtx();
      expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);

      // FedEx turns the first ship request away with a 429; the clerk cancels the batch as that answer arrives.
      emulator.current.set("fedex", {
        fault: { kind: "rate_limited", retry_after_s: 0 },
        fault_operations: ["ship"],
        fault_times: 1,
      });
      const fetch = globalThis.fetch;
      const sent: number[] = [];
      vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        sent.push(performance.now());
        const res = await fetch(input, init);
        if (res.status === 429) {
          expect((await call(cancel, "POST", `/v1/batches/${id}/cancel`, { key, params: { id } })).status).toBe(200);
        }
        return res;
      });
      while ((await runBatch({ ctx, batchId: id, maxDurationMs: 60_000 })).more);

      // The call was under way: its retry waited for a slot and bought the label; the batch ends cancelled.
      expect(emulator.current.calls.filter((c) => c.operation === "ship")).toHaveLength(2);
      // At one call a second the retry's slot is 1 050 ms after the first request's, which starts at most 50 ms
      // after its own. Retry-After 0 alone would have sent it as soon as the cancel had answered.
      expect(sent).toHaveLength(2);
      expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(950);
      const batch = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
      expect(batch.body.state).toBe("cancelled");
      expect(batch.body.counts.purchased).toBe(1);
    },
  );
});
