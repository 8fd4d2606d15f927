import { describe, expect, it } from "vitest";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import type { Emulator } from "@/test/emulator/server";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { atDeadline, clockStill, fakeTimeouts, pastRetryPauses, useRealTimersAfterEach } from "./clock";
import { DHL_CREDENTIALS } from "@/test/dhl-context";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { UPS_CREDENTIALS } from "@/test/ups-context";
import { USPS_CREDENTIALS } from "@/test/usps-context";
import { rateRequest } from "./factories";
import { call, makeOrg } from "./helpers";

/**
 * Every fault the emulator can make a real carrier show, through the API: the contract's code in `messages`, never
 * a 500; and a purchase whose answer never comes is settled without buying twice.
 */

const emulator = useCarrierEmulator();
const DEADLINE_MS = 1500;
// Faults run on fake timers: an answer that never comes ends at the carrier's deadline, moved once the carrier has
// the call; a pause before a retry is moved by exactly what the client logged.
useRealTimersAfterEach();
const CARRIERS = [
  { carrier_name: "ups", credentials: UPS_CREDENTIALS },
  { carrier_name: "fedex", credentials: FEDEX_CREDENTIALS },
  { carrier_name: "usps", credentials: USPS_CREDENTIALS },
  { carrier_name: "dhl_express", credentials: DHL_CREDENTIALS },
] as const;
const phones = {
  shipper: { ...rateRequest().shipper, phone_number: "+1 312 555 0100" },
  recipient: { ...rateRequest().recipient, phone_number: "+1 512 555 0123" },
};

async function orgWith(carrier: (typeof CARRIERS)[number]) {
  const { key } = await makeOrg();
  await addConnection(key, {
    carrier_name: carrier.carrier_name,
    carrier_id: `${carrier.carrier_name}-main`,
    credentials: carrier.credentials,
    config: { deadline_ms: DEADLINE_MS },
  });
  return key;
}

const FAULTS: [string, string, (e: Emulator, carrier: string) => void][] = [
  ["5xx", "carrier_unavailable", (e, c) => e.set(c, { fault: { kind: "status", status: 503 } })],
  [
    "429 beyond the deadline",
    "carrier_rate_limited",
    (e, c) => e.set(c, { fault: { kind: "rate_limited", retry_after_s: 120 } }),
  ],
  ["a body that is not JSON", "carrier_bad_response", (e, c) => e.set(c, { fault: { kind: "malformed" } })],
  ["no answer", "carrier_timeout", (e, c) => e.set(c, { fault: { kind: "hang" } })],
  // DHL Express has no tokens (HTTP Basic on every call): its refusal is a 401 to the call itself.
  [
    "tokens refused once issued (DHL: the call refused)",
    "carrier_auth_failed",
    (e, c) =>
      c === "dhl_express" ? e.set(c, { fault: { kind: "status", status: 401 } }) : e.set(c, { token_ttl_s: 0 }),
  ],
];

describe.each(CARRIERS)("$carrier_name faults through /v1/proxy/rates", (carrier) => {
  it.each(FAULTS)("%s → %s", async (_name, code, apply) => {
    const key = await orgWith(carrier);
    apply(emulator.current, carrier.carrier_name);
    fakeTimeouts();
    const rated = call(rates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: [`${carrier.carrier_name}-main`] }),
    });
    // An answer that never comes ends at the deadline; the 5xx rows pause between retries.
    const res =
      code === "carrier_timeout"
        ? await atDeadline(rated, () => emulator.current.calls.some((c) => c.operation === "rate"), DEADLINE_MS)
        : await pastRetryPauses(rated);
    expect(res.status).toBe(424);
    expect(res.body.rates).toEqual([]);
    expect(res.body.messages).toContainEqual(
      expect.objectContaining({ carrier_name: carrier.carrier_name, code, level: "error" }),
    );
  });
});

describe.each(CARRIERS)("a $carrier_name purchase whose answer never comes", (carrier) => {
  it("answers 424 purchase_outcome_unknown, then refuses to buy again without confirm_rebuy", async () => {
    const key = await orgWith(carrier);
    const created = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: rateRequest({ ...phones, carrier_ids: [`${carrier.carrier_name}-main`] }),
    });
    expect(created.status).toBe(201);
    const shipment = created.body;
    emulator.current.set(carrier.carrier_name, { fault: { kind: "hang" }, fault_operations: ["ship"] });
    fakeTimeouts();
    const buy = () =>
      call(purchase, "POST", `/v1/shipments/${shipment.id}/purchase`, {
        key,
        params: { id: shipment.id },
        body: { selected_rate_id: shipment.rates[0].id },
      });
    const first = await atDeadline(
      buy(),
      () => emulator.current.calls.some((c) => c.operation === "ship"),
      DEADLINE_MS,
    );
    expect(first.status).toBe(424);
    expect(first.body.messages.map((m: { code: string }) => m.code)).toEqual(
      expect.arrayContaining(["carrier_timeout", "purchase_outcome_unknown"]),
    );
    emulator.current.set(carrier.carrier_name, { fault: null });
    const again = await clockStill(buy());
    // None of these carriers can look a label up by reference: the service will not guess, the client decides.
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe("purchase_outcome_unknown");
    const shipCalls = emulator.current.calls.filter((c) => c.operation === "ship");
    expect(shipCalls).toHaveLength(1);
  });
});
