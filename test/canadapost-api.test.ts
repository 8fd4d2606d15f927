import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { POST as createConnection } from "@/app/v1/connections/route";
import { GET as getConnection } from "@/app/v1/connections/[id]/route";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { GET as track } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { CANADAPOST_CONTRACT, CANADAPOST_CREDENTIALS } from "@/test/canadapost-context";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import type { Emulator } from "@/test/emulator/server";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { atDeadline, clockStill, fakeTimeouts, pastRetryPauses, useRealTimersAfterEach } from "./clock";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { call, makeOrg, systemCtx } from "./helpers";
import { seedDueTrackers, trackerRows } from "./refresh-helpers";
import { createShipmentFor, purchaseFor } from "./factories";

/** Canada Post end to end: a `canadapost` connection made through the API, every endpoint against the emulator. */

const emulator = useCarrierEmulator();
// Faults run on fake timers, as test/carrier-faults.test.ts's (which rates US routes Canada Post does not serve).
useRealTimersAfterEach();
// Generous: a shipment is created (rated) on real timers before its fault, and the emulator's XSD checks are slow on
// a loaded machine; the faults themselves run on fake timers, where the deadline costs nothing.
const DEADLINE_MS = 10_000;
const calls = (operation: string) =>
  emulator.current.calls.filter((c) => c.carrier === "canadapost" && c.operation === operation);

const ottawa = {
  person_name: "Ada Shipper",
  company_name: "Acme Warehouse",
  address_line1: "2701 Riverside Drive",
  city: "Ottawa",
  state_code: "ON",
  postal_code: "K1A 0B1",
  country_code: "CA",
  phone_number: "+1 613 555 0100",
};
const toronto = {
  person_name: "Chloé Tremblay",
  address_line1: "290 Bremner Blvd",
  city: "Toronto",
  state_code: "ON",
  postal_code: "M5V 3L9",
  country_code: "CA",
  phone_number: "+1 416 555 0199",
};
const parcel = { weight: 2.5, weight_unit: "KG", length: 30, width: 20, height: 15, dimension_unit: "CM" };
const request = (extra: Record<string, unknown> = {}) => ({
  shipper: ottawa,
  recipient: toronto,
  parcels: [parcel],
  carrier_ids: ["canadapost-main"],
  ...extra,
});

async function canadapostOrg(config: Record<string, unknown> = CANADAPOST_CONTRACT) {
  const org = await makeOrg();
  const conn = await addConnection(org.key, {
    carrier_name: "canadapost",
    carrier_id: "canadapost-main",
    credentials: CANADAPOST_CREDENTIALS,
    config,
  });
  return { ...org, conn };
}

describe("a canadapost connection", () => {
  it("is made through POST /v1/connections: credentials validated, never answered", async () => {
    const { key, conn } = await canadapostOrg();
    const shown = await call(getConnection, "GET", `/v1/connections/${conn.id}`, { key, params: { id: conn.id } });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ carrier_name: "canadapost", carrier_id: "canadapost-main" });
    expect(JSON.stringify(shown.body)).not.toContain(CANADAPOST_CREDENTIALS.api_password);
    const bad = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "canadapost",
        carrier_id: "canadapost-bad",
        credentials: { api_username: "u", customer_number: "12-34" },
        config: { label_size: "4x8", contract_id: "x" },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["config.contract_id", "config.label_size", "credentials.api_password", "credentials.customer_number"].sort(),
    );
    // Canada Post's non-contract refund address pattern, checked when the connection is saved.
    const refund = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "canadapost",
        carrier_id: "canadapost-refund",
        credentials: CANADAPOST_CREDENTIALS,
        config: { refund_email: "refunds@acme.example" },
      },
    });
    expect(refund.status).toBe(400);
    expect(refund.body.errors.map((e: { field: string }) => e.field)).toEqual(["config.refund_email"]);
  });
});

describe("Canada Post through the proxy endpoints", () => {
  it("rates and buys a contract label; the label is the linked PDF and the PIN tracks", async () => {
    const { key } = await canadapostOrg();
    const rated = await call(rates, "POST", "/v1/proxy/rates", { key, body: request() });
    expect(rated.status).toBe(200);
    const offered = rated.body.rates as { id: string; service: string; currency: string }[];
    expect(offered.map((r) => r.service)).toEqual(["DOM.RP", "DOM.EP", "DOM.XP", "DOM.PC"]);
    expect(offered.every((r) => r.currency === "CAD")).toBe(true);
    const chosen = offered.find((r) => r.service === "DOM.EP")!;
    const bought = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...request(), rates: offered, selected_rate_id: chosen.id, reference: "ORDER-1001" },
    });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ status: "purchased", carrier_name: "canadapost", service: "DOM.EP" });
    const pdf = Buffer.from(String(bought.body.label).replace(/\n/g, ""), "base64");
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    expect(calls("label")).toHaveLength(1);

    const n = bought.body.tracking_number as string;
    const tracked = await call(track, "GET", `/v1/proxy/tracking/canadapost/${n}`, {
      key,
      params: { carrier_name: "canadapost", tracking_number: n },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.body.tracking).toMatchObject({ carrier_name: "canadapost", tracking_number: n, status: "pending" });
    const missing = await call(track, "GET", "/v1/proxy/tracking/canadapost/9999999999999999", {
      key,
      params: { carrier_name: "canadapost", tracking_number: "9999999999999999" },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.messages[0]).toMatchObject({ carrier_name: "canadapost", code: "tracking_not_found" });
  });

  it("answers a Canada Post outage as the carrier's messages, never a 500", async () => {
    const { key } = await canadapostOrg();
    emulator.current.set("canadapost", { fault: { kind: "status", status: 503 } });
    const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: request() });
    expect(res.status).toBeLessThan(500);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "canadapost", code: "carrier_unavailable" });
  });
});

describe("Canada Post through the managed endpoints", () => {
  it("creates, purchases a non-contract label, serves it and cancels it by a refund request", async () => {
    const { key } = await canadapostOrg({ refund_email: "refunds@acme.ca" });
    const s = await createShipmentFor(key, request());
    const bought = await purchaseFor(key, s);
    expect(bought.status).toBe(200);
    expect(bought.body.shipment).toMatchObject({ status: "purchased", carrier_name: "canadapost" });
    expect(calls("ship")[0]!.path).toBe(`/rs/${CANADAPOST_CREDENTIALS.customer_number}/ncshipment`);

    const url = `/v1/shipments/${s.id}/label`;
    const file = await label(new Request(`http://localhost${url}`, { headers: { Authorization: `Token ${key}` } }), {
      params: Promise.resolve({ id: s.id }),
    });
    expect(file.status).toBe(200);
    expect((await PDFDocument.load(new Uint8Array(await file.arrayBuffer()))).getPageCount()).toBe(1);

    const cancelled = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(cancelled.status).toBe(200);
    expect(calls("void").map((c) => `${c.method} ${c.path.split("/").pop()}`)).toEqual(["GET details", "POST refund"]);
    // The refund request's service ticket, pending: Canada Post publishes no way to read its outcome, so no check is
    // planned, and cancelling again says where to look instead of asking.
    expect(cancelled.body.shipment.refund).toMatchObject({ status: "pending", reference: expect.any(String) });
    const again = await call(cancel, "POST", `/v1/shipments/${s.id}/cancel`, { key, params: { id: s.id } });
    expect(again.body.messages).toEqual([
      expect.objectContaining({ code: "not_supported", level: "warning", carrier_name: "canadapost" }),
    ]);
    expect(calls("void")).toHaveLength(2);
  });
});

const FAULTS: [string, string, (e: Emulator) => void][] = [
  ["5xx", "carrier_unavailable", (e) => e.set("canadapost", { fault: { kind: "status", status: 503 } })],
  [
    "429 beyond the deadline",
    "carrier_rate_limited",
    (e) => e.set("canadapost", { fault: { kind: "rate_limited", retry_after_s: 120 } }),
  ],
  ["a body that is not XML", "carrier_bad_response", (e) => e.set("canadapost", { fault: { kind: "malformed" } })],
  ["no answer", "carrier_timeout", (e) => e.set("canadapost", { fault: { kind: "hang" } })],
  // No tokens: Basic auth on every call, so a refused key is a 401 (E002) to the call itself.
  ["the key refused", "carrier_auth_failed", (e) => e.set("canadapost", { fault: { kind: "status", status: 401 } })],
];

describe("Canada Post faults through /v1/proxy/rates", () => {
  it.each(FAULTS)("%s → %s", async (_name, code, apply) => {
    const { key } = await canadapostOrg({ ...CANADAPOST_CONTRACT, deadline_ms: DEADLINE_MS });
    apply(emulator.current);
    fakeTimeouts();
    const rated = call(rates, "POST", "/v1/proxy/rates", { key, body: request() });
    const res =
      code === "carrier_timeout"
        ? await atDeadline(rated, () => calls("rate").length > 0, DEADLINE_MS)
        : await pastRetryPauses(rated);
    expect(res.status).toBe(424);
    expect(res.body.rates).toEqual([]);
    expect(res.body.messages).toContainEqual(
      expect.objectContaining({ carrier_name: "canadapost", code, level: "error" }),
    );
  });
});

describe("a Canada Post purchase whose answer never comes", () => {
  it("answers 424 purchase_outcome_unknown, then refuses to buy again without confirm_rebuy", async () => {
    const { key } = await canadapostOrg({ ...CANADAPOST_CONTRACT, deadline_ms: DEADLINE_MS });
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: request() });
    expect(created.status).toBe(201);
    const shipment = created.body;
    emulator.current.set("canadapost", { fault: { kind: "hang" }, fault_operations: ["ship"] });
    fakeTimeouts();
    const buy = () =>
      call(purchase, "POST", `/v1/shipments/${shipment.id}/purchase`, {
        key,
        params: { id: shipment.id },
        body: { selected_rate_id: shipment.rates[0].id },
      });
    const first = await atDeadline(buy(), () => calls("ship").length > 0, DEADLINE_MS);
    expect(first.status).toBe(424);
    expect(first.body.messages.map((m: { code: string }) => m.code)).toEqual(
      expect.arrayContaining(["carrier_timeout", "purchase_outcome_unknown"]),
    );
    emulator.current.set("canadapost", { fault: null });
    const again = await clockStill(buy());
    // Canada Post has no lookup by reference here: the service will not guess, the client decides.
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe("purchase_outcome_unknown");
    expect(calls("ship")).toHaveLength(1);
  });
});

describe("background refresh of Canada Post trackers", () => {
  it("refreshes each PIN in a call of its own, within the key's budget", async () => {
    // The budget's own pace (18 a minute) would make this test wait; the connection may lean harder, as any can.
    const { key, orgId, conn } = await canadapostOrg({ ...CANADAPOST_CONTRACT, refresh_requests_per_minute: 6000 });
    const rated = await call(rates, "POST", "/v1/proxy/rates", { key, body: request() });
    const pins: string[] = [];
    for (let i = 0; i < 2; i++) {
      const bought = await call(shipping, "POST", "/v1/proxy/shipping", {
        key,
        body: { ...request(), rates: rated.body.rates, selected_rate_id: rated.body.rates[0].id },
      });
      pins.push(bought.body.tracking_number as string);
    }
    const ids = await seedDueTrackers(orgId, conn.id, [...pins, "9999999999999999"]);
    const report = await refreshConnection({ ctx: await systemCtx(), connectionId: conn.id });
    expect(report).toMatchObject({ due: 3, requests: 3 });
    expect(calls("track")).toHaveLength(3);
    const rows = new Map((await trackerRows(ids)).map((r) => [r.trackingNumber, r]));
    for (const pin of pins) expect(rows.get(pin)!.status).toBe("pending");
  });
});
