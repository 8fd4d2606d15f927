import { describe, expect, it, vi } from "vitest";
import { PDFDocument } from "pdf-lib";
import { GET as getConnection } from "@/app/v1/connections/[id]/route";
import { POST as createConnection } from "@/app/v1/connections/route";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { GET as track } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { checkDueRefunds } from "@/lib/shipments/refunds";
import { POST as refreshTracker } from "@/app/v1/trackers/[id]/refresh/route";
import { eq } from "drizzle-orm";
import { GET as getTracker, DELETE as deleteTracker } from "@/app/v1/trackers/[id]/route";
import { POST as createTracker } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { getDb } from "@/lib/db/client";
import { trackers } from "@/lib/db/schema";
import { refreshConnection } from "@/lib/trackers/refresh/refresh-connection";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import type { Operation } from "@/test/emulator/server";
import { isValidImpb, isValidS10 } from "@/test/emulator/usps";
import { USPS_CREDENTIALS } from "@/test/usps-context";
import { call, makeOrg, systemCtx } from "./helpers";

/**
 * USPS end to end: the API's routes with a `usps` connection, the service aimed at the carrier emulator
 * (CARRIER_EMULATOR_URL). The emulator's clock can be moved forward so parcels travel.
 */

const lab = useCarrierEmulator();

const calls = (operation: Operation) =>
  lab.current.calls.filter((c) => c.carrier === "usps" && c.operation === operation);

const georgetown = {
  person_name: "Ada Shipper",
  company_name: "Acme Warehouse",
  address_line1: "1098 N Fraser St",
  city: "Georgetown",
  state_code: "SC",
  postal_code: "29440",
  country_code: "US",
  phone_number: "+1 843 555 0100",
};
const oklahomaCity = {
  person_name: "Lina Smith",
  address_line1: "1309 S Agnew Ave",
  address_line2: "Apt 303",
  city: "Oklahoma City",
  state_code: "OK",
  postal_code: "73108",
  country_code: "US",
  residential: true,
};
const london = {
  person_name: "Clara Importer",
  company_name: "Importer Ltd",
  address_line1: "10 Downing Street",
  city: "London",
  postal_code: "SW1A 2AA",
  country_code: "GB",
  phone_number: "+44 20 7946 0000",
};
const parcel = { weight: 4.1, weight_unit: "LB", length: 12, width: 8, height: 6, dimension_unit: "IN" };
const customs = {
  content_type: "merchandise",
  incoterm: "DAP",
  invoice: "INV-77",
  commodities: [
    {
      description: "Cotton T-shirts",
      quantity: 3,
      value_amount: 20,
      value_currency: "USD",
      weight: 0.2,
      weight_unit: "KG",
      hs_code: "6109.10",
      origin_country: "US",
      sku: "TS-1",
    },
  ],
};

const domestic = (extra: Record<string, unknown> = {}) => ({
  shipper: georgetown,
  recipient: oklahomaCity,
  parcels: [parcel],
  carrier_ids: ["usps-main"],
  ...extra,
});
const international = (extra: Record<string, unknown> = {}) => domestic({ recipient: london, ...extra });

async function uspsOrg(credentials: Record<string, unknown> = USPS_CREDENTIALS) {
  const org = await makeOrg();
  const conn = await addConnection(org.key, {
    carrier_name: "usps",
    carrier_id: "usps-main",
    credentials,
    test_mode: true,
  });
  return { ...org, connectionId: conn.id };
}

async function quote(key: string, body: Record<string, unknown>) {
  const res = await call(rates, "POST", "/v1/proxy/rates", { key, body });
  expect(res.status).toBe(200);
  return res.body.rates as { id: string; service: string; carrier_name: string; total_charge: number }[];
}

const labelBytes = (text: string) => Buffer.from(text.replace(/\n/g, ""), "base64");

describe("a USPS connection", () => {
  it("is created with validated credentials that are never answered back", async () => {
    const { key } = await makeOrg();
    const bad = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "usps", carrier_id: "usps-bad", credentials: { ...USPS_CREDENTIALS, mid: "12" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain("credentials.mid");
    const created = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "usps",
        carrier_id: "usps-main",
        credentials: USPS_CREDENTIALS,
        config: { price_type: "RETAIL", refund_review_days: 14 },
      },
    });
    expect(created.status).toBe(201);
    const read = await call(getConnection, "GET", `/v1/connections/${created.body.id}`, {
      key,
      params: { id: created.body.id },
    });
    expect(JSON.stringify(read.body)).not.toContain(USPS_CREDENTIALS.client_secret);
    expect(read.body).toMatchObject({ carrier_name: "usps", config: { price_type: "RETAIL", refund_review_days: 14 } });
  });
});

describe("USPS through the proxy endpoints", () => {
  it("rates, buys a domestic label with its receipt and tracks it", async () => {
    const { key } = await uspsOrg();
    const offered = await quote(key, domestic());
    expect(offered.every((r) => r.carrier_name === "usps")).toBe(true);
    const priority = offered.find((r) => r.service === "PRIORITY_MAIL")!;
    const bought = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...domestic(), rates: offered, selected_rate_id: priority.id, reference: "ORDER-9" },
    });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ status: "purchased", carrier_name: "usps", service: "PRIORITY_MAIL" });
    expect(isValidImpb(bought.body.tracking_number)).toBe(true);
    expect((await PDFDocument.load(labelBytes(bought.body.label))).getPageCount()).toBe(1);

    const n = bought.body.tracking_number;
    const tracked = await call(track, "GET", `/v1/proxy/tracking/usps/${n}`, {
      key,
      params: { carrier_name: "usps", tracking_number: n },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.body.tracking).toMatchObject({ carrier_name: "usps", tracking_number: n, status: "pending" });
    expect(calls("token")).toHaveLength(1);
    expect(calls("payment")).toHaveLength(1);
  });

  it("an unknown USPS number is a 404 with tracking_not_found", async () => {
    const { key } = await uspsOrg();
    const n = "9205590000000100000018";
    const res = await call(track, "GET", `/v1/proxy/tracking/usps/${n}`, {
      key,
      params: { carrier_name: "usps", tracking_number: n },
    });
    expect(res.status).toBe(404);
    expect(res.body.messages[0]).toMatchObject({ code: "tracking_not_found", carrier_name: "usps" });
  });

  it("buys an international ZPL label with customs on it", async () => {
    const { key } = await uspsOrg();
    const offered = await quote(key, international());
    const pmi = offered.find((r) => r.service === "PRIORITY_MAIL_INTERNATIONAL")!;
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...international(), customs, rates: offered, selected_rate_id: pmi.id, label_type: "ZPL" },
    });
    expect(res.status).toBe(200);
    expect(isValidS10(res.body.tracking_number)).toBe(true);
    expect(labelBytes(res.body.label).toString("utf8")).toContain(res.body.tracking_number);
    const sent = JSON.parse(calls("ship")[0]!.body);
    expect(sent.customsForm).toMatchObject({
      customsContentType: "MERCHANDISE",
      invoiceNumber: "INV-77",
      contents: [{ itemDescription: "Cotton T-shirts", itemQuantity: 3, HSTariffNumber: "610910" }],
    });
  });

  it("a refused payment account is carrier_auth_failed naming the account, and nothing is bought", async () => {
    const { key } = await uspsOrg({ ...USPS_CREDENTIALS, account_number: "REFUSED-9" });
    const offered = await quote(key, domestic());
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...domestic(), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "usps", code: "carrier_auth_failed" });
    expect(res.body.messages[0].message).toContain("the payment account EPS REFUSED-9");
    expect(calls("ship")).toHaveLength(0);
  });

  it("a USPS outage is the carrier's failure in messages, never a 500", async () => {
    const { key } = await uspsOrg();
    lab.current.set("usps", { fault: { kind: "status", status: 503 } });
    const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: domestic() });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({ carrier_name: "usps", code: "carrier_unavailable" });
  });
});

describe("USPS through the managed endpoints", () => {
  it("create → purchase → label, then the tracker follows the parcel; cancelling voids it at USPS", async () => {
    const { key } = await uspsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic({ reference: "M-1" }) });
    expect(created.status).toBe(201);
    const ground = created.body.rates.find((r: { service: string }) => r.service === "USPS_GROUND_ADVANTAGE");
    expect(ground).toMatchObject({ carrier_name: "usps", carrier_id: "usps-main" });
    const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
      key,
      params: { id: created.body.id },
      body: { selected_rate_id: ground.id },
    });
    expect(bought.status).toBe(200);
    const shipment = bought.body.shipment;
    expect(shipment).toMatchObject({ status: "purchased", carrier_name: "usps", service: "USPS_GROUND_ADVANTAGE" });

    const file = await label(
      new Request(`http://localhost/v1/shipments/${shipment.id}/label`, { headers: { Authorization: `Token ${key}` } }),
      { params: Promise.resolve({ id: shipment.id }) },
    );
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");

    lab.skewMs = 9 * 3_600_000;
    const refreshed = await call(refreshTracker, "POST", `/v1/trackers/${shipment.tracker_id}/refresh`, {
      key,
      params: { id: shipment.tracker_id },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ status: "in_transit", carrier_name: "usps" });
    expect(refreshed.body.events.length).toBeGreaterThanOrEqual(3);
  });

  it("a refund that stays pending, then settles on a later check", async () => {
    const { key } = await uspsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
      key,
      params: { id: created.body.id },
      body: { selected_rate_id: created.body.rates[0].id },
    });
    const shipment = bought.body.shipment;
    // Past the Shipping Services File: USPS answers the cancellation with a refund request (DISPUTED).
    lab.skewMs = 11 * 60_000;
    const res = await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, { key, params: { id: shipment.id } });
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("cancelled");
    expect(res.body.shipment.refund).toMatchObject({ status: "pending", reference: expect.stringMatching(/^\d+$/) });

    // A day later, no scan: still pending, and the check is recorded.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 24 * 3_600_000 });
    expect(await checkDueRefunds({ ctx: await systemCtx(), now: new Date() })).toMatchObject({ settled: 0 });
    const waiting = (
      await call(getShipment, "GET", `/v1/shipments/${shipment.id}`, { key, params: { id: shipment.id } })
    ).body;
    expect(waiting.refund).toMatchObject({ status: "pending", settled_at: null });
    expect(waiting.refund.checked_at).not.toBeNull();
    expect(calls("track").length).toBeGreaterThanOrEqual(1);

    // Past the connection's review window without a scan: settled as refunded, on the next check.
    vi.setSystemTime(Date.now() + 31 * 24 * 3_600_000);
    expect(await checkDueRefunds({ ctx: await systemCtx(), now: new Date() })).toMatchObject({ settled: 1 });
    const settled = (
      await call(getShipment, "GET", `/v1/shipments/${shipment.id}`, { key, params: { id: shipment.id } })
    ).body;
    expect(settled).toMatchObject({ status: "cancelled", refund: { status: "refunded" } });
    expect(settled.refund.settled_at).not.toBeNull();
  });

  it("a label USPS scanned: its refund is refused on the next check", async () => {
    const { key } = await uspsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const shipment = (
      await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
        key,
        params: { id: created.body.id },
        body: { selected_rate_id: created.body.rates[0].id },
      })
    ).body.shipment;
    lab.skewMs = 3 * 3_600_000;
    const res = await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, { key, params: { id: shipment.id } });
    expect(res.body.shipment.refund.status).toBe("pending");
    // Asking again the next day (cancelling again) reads the scans.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 24 * 3_600_000 });
    const again = await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, {
      key,
      params: { id: shipment.id },
    });
    expect(again.status).toBe(200);
    expect(again.body.shipment.refund.status).toBe("refused");
    expect(again.body.messages).toContainEqual(
      expect.objectContaining({ code: "USPS_REFUND_REFUSED", level: "warning", carrier_name: "usps" }),
    );
  });

  it("a tracker for a USPS number the client did not name a carrier for: told from the number", async () => {
    const { key } = await uspsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const shipment = (
      await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
        key,
        params: { id: created.body.id },
        body: { selected_rate_id: created.body.rates[0].id },
      })
    ).body.shipment;
    // The label's own tracker is deleted, so the number is tracked anew.
    await call(deleteTracker, "DELETE", `/v1/trackers/${shipment.tracker_id}`, {
      key,
      params: { id: shipment.tracker_id },
    });
    const tn = shipment.tracking_number as string;
    const res = await call(createTracker, "POST", `/v1/trackers/auto/${tn}`, {
      key,
      params: { id: "auto", tracking_number: tn },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ carrier_name: "usps", carrier_id: "usps-main", tracking_number: tn });
  });

  it("cancelling a label before USPS billed it voids it", async () => {
    const { key } = await uspsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const rate = created.body.rates[0];
    const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
      key,
      params: { id: created.body.id },
      body: { selected_rate_id: rate.id },
    });
    const shipment = bought.body.shipment;
    const res = await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, { key, params: { id: shipment.id } });
    expect(res.status).toBe(200);
    expect(res.body.shipment.status).toBe("cancelled");
    expect(calls("void")).toHaveLength(1);
    expect(calls("void")[0]!.path).toBe(`/labels/v3/label/${shipment.tracking_number}`);
  });

  it("the background refresh follows a due USPS tracker to delivered, within its budget of one call", async () => {
    const { key, connectionId } = await uspsOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: domestic() });
    const { shipment } = (
      await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
        key,
        params: { id: created.body.id },
        body: { selected_rate_id: created.body.rates[0].id },
      })
    ).body;
    lab.skewMs = 3 * 24 * 3_600_000;
    const db = await getDb();
    await db
      .update(trackers)
      .set({ nextRefreshAt: new Date(Date.now() - 1000) })
      .where(eq(trackers.id, shipment.tracker_id));
    const before = calls("track").length;
    const report = await refreshConnection({ ctx: await systemCtx(db), connectionId });
    expect(report).toMatchObject({ due: 1, refreshed: 1, failed: 0 });
    // One tracking call answered (the token, three days old by USPS's clock, is renewed once on its 401).
    expect(
      calls("track")
        .slice(before)
        .filter((c) => c.status === 200),
    ).toHaveLength(1);
    const tracker = await call(getTracker, "GET", `/v1/trackers/${shipment.tracker_id}`, {
      key,
      params: { id: shipment.tracker_id },
    });
    expect(tracker.body).toMatchObject({ status: "delivered", delivered: true });
  });
});
