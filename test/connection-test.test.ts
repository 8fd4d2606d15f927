import { describe, expect, it } from "vitest";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { connectionTestVerdict } from "@/lib/client/connection-test";
import { testRateRoute } from "@/lib/client/connection-settings";
import { CANADAPOST_CREDENTIALS } from "@/test/canadapost-context";
import type { Message } from "@/lib/schemas/message";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { DHL_CREDENTIALS } from "@/test/dhl-context";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { UPS_CREDENTIALS } from "@/test/ups-context";
import { USPS_CREDENTIALS } from "@/test/usps-context";
import { call, makeOrg } from "./helpers";

/**
 * Test connection (components/settings/connections/test-connection-dialog.tsx) as the dashboard runs it: the
 * harmless quote through one connection, then the verdict the dialog shows. Wrong credentials and a carrier that
 * cannot be reached must read differently: one is for the clerk to fix, the other to wait out.
 */

const emulator = useCarrierEmulator();

async function testConnection(
  carrier_name: "ups" | "fedex" | "usps" | "dhl_express" | "canadapost",
  credentials: Record<string, unknown>,
) {
  const { key } = await makeOrg();
  const conn = await addConnection(key, { carrier_name, carrier_id: `${carrier_name}-test`, credentials });
  const res = await call(rates, "POST", "/v1/proxy/rates", {
    key,
    body: { ...testRateRoute(carrier_name), carrier_ids: [conn.id] },
  });
  const answer = { rates: (res.body.rates ?? []) as unknown[], messages: (res.body.messages ?? []) as Message[] };
  return { status: res.status, answer, verdict: connectionTestVerdict(answer) };
}

const cases = {
  ups: {
    good: UPS_CREDENTIALS,
    wrong: { ...UPS_CREDENTIALS, client_id: "invalid-client" },
  },
  fedex: {
    good: FEDEX_CREDENTIALS,
    wrong: { ...FEDEX_CREDENTIALS, secret_key: "invalid" },
  },
  usps: {
    good: USPS_CREDENTIALS,
    wrong: { ...USPS_CREDENTIALS, client_id: "invalid-client" },
  },
  dhl_express: {
    good: DHL_CREDENTIALS,
    wrong: { ...DHL_CREDENTIALS, password: "invalid" },
  },
} as const;

describe.each(["ups", "fedex", "usps", "dhl_express"] as const)("Test connection, %s", (carrier) => {
  it("good credentials: rates, and the verdict says the carrier accepted them", async () => {
    const { status, answer, verdict } = await testConnection(carrier, cases[carrier].good);
    expect(status).toBe(200);
    expect(answer.rates.length).toBeGreaterThan(0);
    expect(verdict.kind).toBe("ok");
  });

  it("wrong credentials: carrier_auth_failed, and the verdict asks for the credentials", async () => {
    const { status, answer, verdict } = await testConnection(carrier, cases[carrier].wrong);
    expect(status).toBe(424);
    expect(answer.messages[0]).toMatchObject({ carrier_name: carrier, code: "carrier_auth_failed" });
    expect(verdict.kind).toBe("credentials");
    expect(verdict.text).toMatch(/refused the credentials/);
  });

  it("a carrier that does not answer (503 from its token endpoint, if any, on): unreachable, credentials not judged", async () => {
    emulator.current.set(carrier, { fault: { kind: "status", status: 503 }, fault_operations: ["token", "rate"] });
    const { status, answer, verdict } = await testConnection(carrier, cases[carrier].good);
    expect(status).toBe(424);
    expect(answer.messages[0]).toMatchObject({ carrier_name: carrier, code: "carrier_unavailable" });
    expect(verdict.kind).toBe("unreachable");
    expect(verdict.text).toMatch(/credentials were not checked/);
  });
});

describe("Test connection, a UPS account UPS has blocked", () => {
  it("UPS's 403 Blocked Merchant reads as an account problem, with UPS's words", async () => {
    const { status, answer, verdict } = await testConnection("ups", { ...UPS_CREDENTIALS, client_id: "blocked-app" });
    expect(status).toBe(424);
    expect(answer.messages[0]).toMatchObject({ code: "carrier_auth_failed", details: { status: 403 } });
    expect(answer.messages[0]!.message).toMatch(/Blocked Merchant/);
    expect(verdict.kind).toBe("credentials");
  });
});

describe("connectionTestVerdict", () => {
  const message = (code: string, level: Message["level"] = "error"): Message => ({
    carrier_name: "ups",
    carrier_id: "ups",
    code,
    message: code,
    level,
    details: {},
  });

  it("a carrier's own refusal of the quote is neither credentials nor an outage", () => {
    expect(connectionTestVerdict({ rates: [], messages: [message("111100")] }).kind).toBe("refused");
    expect(connectionTestVerdict({ rates: [], messages: [] }).kind).toBe("refused");
  });

  it("a timeout and a rate limit are the carrier not answering; a warning beside rates is still ok", () => {
    expect(connectionTestVerdict({ rates: [], messages: [message("carrier_timeout")] }).kind).toBe("unreachable");
    expect(connectionTestVerdict({ rates: [], messages: [message("carrier_rate_limited")] }).kind).toBe("unreachable");
    expect(connectionTestVerdict({ rates: [{}], messages: [message("110971", "warning")] }).kind).toBe("ok");
  });
});

describe("Test connection, canadapost (Basic auth, a Canadian route)", () => {
  it("good credentials quote Ottawa → Toronto; a key Canada Post refuses (E002) asks for the credentials", async () => {
    const good = await testConnection("canadapost", CANADAPOST_CREDENTIALS);
    expect(good.status).toBe(200);
    expect(good.verdict.kind).toBe("ok");
    const wrong = await testConnection("canadapost", { ...CANADAPOST_CREDENTIALS, api_username: "invalid-key" });
    expect(wrong.status).toBe(424);
    expect(wrong.answer.messages[0]).toMatchObject({ carrier_name: "canadapost", code: "carrier_auth_failed" });
    expect(wrong.verdict.kind).toBe("credentials");
  });
});
