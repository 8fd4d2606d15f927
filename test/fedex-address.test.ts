import { describe, expect, it } from "vitest";
import { invokeCarrier } from "@/lib/carriers/invoke";
import type { Address, AddressVerification, ConnectionInfo } from "@/lib/carriers/types";
import { buildResolveRequest } from "@/lib/carriers/fedex/address-validation";
import { atDeadline, fakeTimeouts, useRealTimersAfterEach } from "@/test/clock";
import { useCarrierEmulator } from "@/test/emulator-helpers";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { sampleAddress } from "@/test/label-samples";

/**
 * The FedEx adapter's address validation against the emulator's FedEx (held to address-validation.json), through
 * invokeCarrier as the service runs it: batches of 100, each of FedEx's verdicts, and every fault switch ending in
 * the contract's code.
 */

const emulator = useCarrierEmulator();
useRealTimersAfterEach();
let connections = 0;

function connection(config: Record<string, unknown> = {}): ConnectionInfo {
  return {
    id: `car_fedexaddr${++connections}`,
    carrier_name: "fedex",
    carrier_id: "fedex",
    test_mode: true,
    config,
    credentials: FEDEX_CREDENTIALS,
  };
}

const resolve = (addresses: Address[], conn = connection()) =>
  invokeCarrier<AddressVerification[]>(conn, "address_validation", undefined, (a, ctx) =>
    a.validateAddresses!(ctx, addresses),
  );
const calls = (operation: string) => emulator.current.calls.filter((c) => c.operation === operation);

const us = (line: string, overrides: Partial<Address> = {}) =>
  sampleAddress({
    person_name: "Ann Clerk",
    company_name: "Texas Capitol Cafe",
    address_line1: line,
    address_line2: null,
    city: "Austin",
    state_code: "TX",
    postal_code: "78701",
    phone_number: "+1 512 555 0100",
    ...overrides,
  });

describe("FedEx address resolve against the emulator", () => {
  it("answers each address of one call in order: verified, suite added, ambiguous twice, not found, Canada, Germany", async () => {
    const res = await resolve([
      us("1100 Congress Ave"),
      us("500 W 2nd St"),
      us("100 Main St", { city: "New York", state_code: "NY", postal_code: "10001" }),
      us("1190 Congress Ave"),
      us("1 Nowhere Rd"),
      us("100 Queen St W", { city: "Toranto", state_code: "ON", postal_code: "M5H 2N1", country_code: "CA" }),
      us("Unter den Linden 1", { city: "Berlin", state_code: "", postal_code: "10117", country_code: "DE" }),
      us("1 Rue de Rivoli", { city: "Paris", state_code: "", postal_code: "75001", country_code: "FR" }),
    ]);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.data.map((v) => [v.status, v.residential, v.candidates[0]?.address_line1 ?? null])).toEqual([
      ["verified", false, "1100 CONGRESS AVE"],
      ["verified", false, "500 W 2ND ST"],
      ["ambiguous", null, "100 N MAIN ST"],
      ["ambiguous", null, "1190 CONGRESS AVE"],
      ["not_found", null, null],
      ["verified", false, "100 QUEEN ST W"],
      ["verified", null, "UNTER DEN LINDEN 1"],
      ["unsupported", null, null],
    ]);
    expect(res.data[1]!.candidates[0]).toMatchObject({ address_line2: "STE 1900", postal_code: "78701-4687" });
    expect(res.data[5]!.candidates[0]).toMatchObject({ city: "TORONTO", state_code: "ON" });
    expect(res.messages).toEqual([
      expect.objectContaining({ code: "INTERPOLATED.STREET.ADDRESS", details: { index: 3 } }),
    ]);
    expect(calls("address_validation")).toHaveLength(1);
    // Names, companies and phones stay home.
    const body = calls("address_validation")[0]!.body;
    for (const secret of ["Ann Clerk", "Texas Capitol Cafe", "555 0100"]) expect(body).not.toContain(secret);
  });

  it("sends 150 addresses in two calls of 100 and 50, and answers them in order", async () => {
    const addresses = Array.from({ length: 150 }, (_, i) =>
      i === 120
        ? us("4 Privet Dr", { city: "San Francisco", state_code: "CA", postal_code: "94105" })
        : us(`${i} Nowhere Rd`),
    );
    const res = await resolve(addresses);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.data).toHaveLength(150);
    expect(res.data[120]).toMatchObject({ status: "verified", residential: true });
    expect(res.data.filter((v) => v.status === "not_found")).toHaveLength(149);
    const sizes = calls("address_validation").map(
      (c) => (JSON.parse(c.body) as { addressesToValidate: unknown[] }).addressesToValidate.length,
    );
    expect(sizes).toEqual([100, 50]);
  });
});

describe("FedEx address resolve faults give the contract's codes", () => {
  const one = [us("1100 Congress Ave")];
  const only = { fault_operations: ["address_validation" as const] };

  it("an expired token: FedEx's 401, one new token, then the answer", async () => {
    const conn = connection();
    expect((await resolve(one, conn)).ok).toBe(true);
    emulator.current.expireTokens("fedex");
    const again = await resolve(one, conn);
    expect(again.ok && again.data[0]!.status).toBe("verified");
    expect(calls("address_validation").map((c) => c.status)).toEqual([200, 401, 200]);
    expect(calls("token")).toHaveLength(2);
  });

  it("401 forever: one retry with a new token, then carrier_auth_failed", async () => {
    emulator.current.set("fedex", { fault: { kind: "status", status: 401 }, ...only });
    const res = await resolve(one);
    expect(res.messages[0]!.code).toBe("carrier_auth_failed");
    expect(calls("address_validation")).toHaveLength(2);
  });

  it("429 with a long Retry-After: carrier_rate_limited with the wait", async () => {
    emulator.current.set("fedex", { fault: { kind: "rate_limited", retry_after_s: 30 }, ...only });
    const res = await resolve(one);
    expect(res.messages[0]).toMatchObject({ code: "carrier_rate_limited", details: { retry_after_seconds: 30 } });
  });

  it("a body that is not JSON: carrier_bad_response", async () => {
    emulator.current.set("fedex", { fault: { kind: "malformed" }, ...only });
    const res = await resolve(one);
    expect(res.ok).toBe(false);
    expect(res.messages[0]!.code).toBe("carrier_bad_response");
  });

  it("an answer that never comes: carrier_timeout at the connection's deadline", async () => {
    emulator.current.set("fedex", { fault: { kind: "hang" }, ...only });
    fakeTimeouts();
    const res = await atDeadline(
      resolve(one, connection({ deadline_ms: 400 })),
      () => calls("address_validation").length === 1,
      400,
    );
    expect(res.messages[0]!.code).toBe("carrier_timeout");
  });
});

describe("the emulator's FedEx checks what address-validation.json says", () => {
  async function post(body: unknown) {
    const token = await fetch(`${emulator.current.url}/fedex/oauth/token`, {
      method: "POST",
      body: "grant_type=client_credentials&client_id=a&client_secret=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const res = await fetch(`${emulator.current.url}/fedex/address/v1/addresses/resolve`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
    });
    return { status: res.status, body: (await res.json()) as { errors?: { code: string; parameterList?: unknown }[] } };
  }

  it("refuses 101 addresses, an empty street line and a 3-letter state, naming each field", async () => {
    const body = buildResolveRequest(Array.from({ length: 101 }, (_, i) => us(`${i} Congress Ave`)));
    const many = await post(body);
    expect(many.status).toBe(400);
    expect(many.body.errors).toEqual([
      expect.objectContaining({
        code: "INVALID.INPUT.EXCEPTION",
        parameterList: [{ key: "field", value: "addressesToValidate" }],
      }),
    ]);
    const [item] = buildResolveRequest([us("1100 Congress Ave")]).addressesToValidate;
    const bad = await post({
      addressesToValidate: [
        { address: { ...item!.address, streetLines: ["1100 Congress Ave", ""], stateOrProvinceCode: "TEX" } },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors!.map((e) => e.parameterList)).toEqual([
      [{ key: "field", value: "addressesToValidate[0].address.streetLines" }],
      [{ key: "field", value: "addressesToValidate[0].address.stateOrProvinceCode" }],
    ]);
  });

  it("refuses an address without the city the file requires, and records the violation", async () => {
    const [item] = buildResolveRequest([us("1100 Congress Ave")]).addressesToValidate;
    const { city: _city, ...noCity } = item!.address;
    const res = await post({ addressesToValidate: [{ address: noCity }] });
    expect(res.status).toBe(400);
    expect(res.body.errors![0]!.code).toBe("INVALID.INPUT.EXCEPTION");
    expect(emulator.current.takeViolations()).toMatchObject([
      { carrier: "fedex", operation: "address_validation", kind: "request" },
    ]);
  });
});
