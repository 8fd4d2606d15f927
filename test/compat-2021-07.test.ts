import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GET as listKeys, POST as createKey } from "@/app/v1/api_keys/route";
import { DELETE as revokeKey } from "@/app/v1/api_keys/[id]/route";
import { POST as proxyShipping } from "@/app/v1/proxy/shipping/route";
import { POST as proxyRates } from "@/app/v1/proxy/rates/route";
import { GET as proxyTracking } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { GET as listShipments } from "@/app/v1/shipments/route";
import { DELETE as deleteShipment, GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as listTrackers } from "@/app/v1/trackers/route";
import { DELETE as deleteTracker, GET as getTracker } from "@/app/v1/trackers/[id]/route";
import { POST as createTracker } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { trackers } from "@/lib/db/schema";
import { Shipment } from "@/lib/schemas/shipment";
import { StoredTracker, Tracker } from "@/lib/schemas/tracker";
import { call, makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor, rateRequest } from "./factories";
import { sandboxNumbers } from "./refresh-helpers";

/**
 * An existing purplship 2021.7 integration, decoded as its generated clients decode answers: a Shipment's and a
 * Tracker's every documented field with its type, and statuses only from the 2021.7 enum.
 */
const LEGACY = z.enum(["created", "purchased", "cancelled", "shipped", "in-transit", "delivered"]);
const LegacyShipment = Shipment.extend({ status: LEGACY });
const LegacyTracker = Tracker.extend({
  status: LEGACY,
  events: z.array(Tracker.shape.events.element.extend({ status: LEGACY })),
});

async function keyWithVersion(key: string, api_version?: string) {
  const res = await call(createKey, "POST", "/v1/api_keys", {
    key,
    body: { name: "legacy integration", ...(api_version ? { api_version } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; key: string; api_version: string; prefix: string };
}

describe("the purchase and cancel answers read both ways", () => {
  it("carries the Shipment's fields at the top level and under `shipment`, with messages", async () => {
    const { key } = await makeOrg();
    const shipment = await createShipmentFor(key);
    const bought = await purchaseFor(key, shipment);
    expect(bought.status).toBe(200);
    // A 2021.7 client decodes the body as a Shipment…
    const asShipment = Shipment.parse(bought.body);
    expect(asShipment).toMatchObject({ id: shipment.id, status: "purchased" });
    expect(asShipment.label).toEqual(expect.any(String));
    // …a client of the interface reads `messages` and `shipment`; both hold the same shipment.
    const wrapped = Shipment.strict().parse(bought.body.shipment);
    expect(bought.body.messages).toEqual([]);
    const { shipment: _inner, ...top } = bought.body;
    expect(top).toEqual(wrapped);

    const cancelled = await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, {
      key,
      params: { id: shipment.id },
    });
    expect(cancelled.status).toBe(200);
    expect(Shipment.parse(cancelled.body).status).toBe("cancelled");
    expect(Shipment.strict().parse(cancelled.body.shipment).status).toBe("cancelled");
  });

  it("DELETE /v1/shipments/{id} cancels like POST …/cancel, with the same answer, and keeps the record", async () => {
    const { key } = await makeOrg();
    const shipment = await createShipmentFor(key);
    await purchaseFor(key, shipment);
    const res = await call(deleteShipment, "DELETE", `/v1/shipments/${shipment.id}`, {
      key,
      params: { id: shipment.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: shipment.id, status: "cancelled", shipment: { status: "cancelled" } });
    const again = await call(deleteShipment, "DELETE", `/v1/shipments/${shipment.id}`, {
      key,
      params: { id: shipment.id },
    });
    expect(again.status).toBe(200);
    const kept = await call(getShipment, "GET", `/v1/shipments/${shipment.id}`, { key, params: { id: shipment.id } });
    expect(kept.body.status).toBe("cancelled");
  });
});

describe("proxy mode mints ids", () => {
  it("answers a fresh shp_ id for a proxy label and a trk_ id for proxy tracking, neither retrievable", async () => {
    const { key } = await makeOrg();
    const offered = (await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest() })).body.rates;
    const body = { ...rateRequest(), rates: offered, selected_rate_id: offered[0].id };
    const first = await call(proxyShipping, "POST", "/v1/proxy/shipping", { key, body });
    const second = await call(proxyShipping, "POST", "/v1/proxy/shipping", { key, body });
    expect(first.body.id).toMatch(/^shp_[0-9a-f]{32}$/);
    expect(second.body.id).toMatch(/^shp_[0-9a-f]{32}$/);
    expect(second.body.id).not.toBe(first.body.id);
    const stored = await call(getShipment, "GET", `/v1/shipments/${first.body.id}`, {
      key,
      params: { id: first.body.id },
    });
    expect(stored.status).toBe(404);

    const number = first.body.tracking_number as string;
    const tracked = await call(proxyTracking, "GET", `/v1/proxy/tracking/sandbox/${number}`, {
      key,
      params: { carrier_name: "sandbox", tracking_number: number },
    });
    expect(tracked.body.tracking.id).toMatch(/^trk_[0-9a-f]{32}$/);
    const tracker = await call(getTracker, "GET", `/v1/trackers/${tracked.body.tracking.id}`, {
      key,
      params: { id: tracked.body.tracking.id },
    });
    expect(tracker.status).toBe(404);
  });
});

describe("trackers by id or tracking number", () => {
  it("GET and DELETE /v1/trackers/{tracking_number} find the tracker; the newest wins across carriers", async () => {
    const { key, orgId } = await makeOrg();
    const [number] = sandboxNumbers(1, 30, 2);
    const created = await call(createTracker, "POST", `/v1/trackers/sandbox/${number}`, {
      key,
      params: { id: "sandbox", tracking_number: number! },
    });
    expect(created.status).toBe(201);

    const byNumber = await call(getTracker, "GET", `/v1/trackers/${number}`, { key, params: { id: number! } });
    expect(byNumber.status).toBe(200);
    expect(StoredTracker.strict().parse(byNumber.body).id).toBe(created.body.id);
    // As carriers print it: spaces and lower case are the same number.
    const spaced = `${number!.slice(0, 6).toLowerCase()} ${number!.slice(6)}`;
    const loose = await call(getTracker, "GET", `/v1/trackers/${spaced}`, { key, params: { id: spaced } });
    expect(loose.body.id).toBe(created.body.id);

    // The same number on another carrier's tracker, made later: the newest is the one named.
    const other = newId("tracker");
    await (await getDb()).insert(trackers).values({
      id: other,
      orgId,
      carrierName: "ups",
      carrierId: "ups",
      carrierConnectionId: newId("connection"),
      trackingNumber: number!,
      status: "in_transit",
      testMode: true,
      createdAt: new Date(Date.now() + 1000),
    });
    const newest = await call(getTracker, "GET", `/v1/trackers/${number}`, { key, params: { id: number! } });
    expect(newest.body).toMatchObject({ id: other, carrier_name: "ups" });

    const gone = await call(deleteTracker, "DELETE", `/v1/trackers/${number}`, { key, params: { id: number! } });
    expect(gone.body.id).toBe(other);
    const left = await call(getTracker, "GET", `/v1/trackers/${number}`, { key, params: { id: number! } });
    expect(left.body.id).toBe(created.body.id);

    // Another organization's tracker is not found by its number.
    const stranger = await makeOrg();
    const hidden = await call(getTracker, "GET", `/v1/trackers/${number}`, {
      key: stranger.key,
      params: { id: number! },
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.errors[0]).toMatchObject({ code: "not_found" });
  });

  it("answers 400 for something that is neither an id nor a tracking number", async () => {
    const { key } = await makeOrg();
    const res = await call(getTracker, "GET", "/v1/trackers/x", { key, params: { id: "no!" } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: "validation_error", field: "id" });
  });
});

describe("API versions", () => {
  it("a key made with api_version 2021-07 answers in the 2021.7 vocabulary; the header overrides it", async () => {
    const { key } = await makeOrg();
    const legacy = await keyWithVersion(key, "2021-07");
    expect(legacy.api_version).toBe("2021-07");
    const shipment = await createShipmentFor(legacy.key);
    expect(LegacyShipment.parse(shipment).status).toBe("created");
    const bought = await purchaseFor(legacy.key, shipment);
    expect(LegacyShipment.parse(bought.body).status).toBe("purchased");
    expect(LegacyShipment.parse(bought.body.shipment).status).toBe("purchased");
    expect(bought.headers.get("shipwell-version")).toBe("2021-07");

    // The linked tracker is pending; in 2021.7 words it is `created`, and so are its events.
    const number = bought.body.tracking_number as string;
    const tracker = await call(getTracker, "GET", `/v1/trackers/${number}`, {
      key: legacy.key,
      params: { id: number },
    });
    expect(LegacyTracker.parse(tracker.body).status).toBe("created");
    const proxy = await call(proxyTracking, "GET", `/v1/proxy/tracking/sandbox/${number}`, {
      key: legacy.key,
      params: { carrier_name: "sandbox", tracking_number: number },
    });
    expect(LegacyTracker.parse(proxy.body.tracking).status).toBe("created");

    // The header wins over the key's version, both ways.
    const current = await call(getTracker, "GET", `/v1/trackers/${number}`, {
      key: legacy.key,
      params: { id: number },
      headers: { "Shipwell-Version": "2026-11" },
    });
    expect(current.body.status).toBe("pending");
    expect(current.headers.get("shipwell-version")).toBe("2026-11");
    const asked = await call(getTracker, "GET", `/v1/trackers/${number}`, {
      key,
      params: { id: number },
      headers: { "Shipwell-Version": "2021-07" },
    });
    expect(asked.body.status).toBe("created");
  });

  it("keys default to the current version; an unknown version is refused in the header and at creation", async () => {
    const { key } = await makeOrg();
    const plain = await keyWithVersion(key);
    expect(plain.api_version).toBe("2026-11");
    const shipments = await call(listShipments, "GET", "/v1/shipments", { key: plain.key });
    expect(shipments.headers.get("shipwell-version")).toBe("2026-11");

    const badHeader = await call(listShipments, "GET", "/v1/shipments", {
      key,
      headers: { "Shipwell-Version": "2019-01" },
    });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.errors[0]).toMatchObject({ code: "validation_error", field: "Shipwell-Version" });
    const badKey = await call(createKey, "POST", "/v1/api_keys", { key, body: { name: "x", api_version: "1999" } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.errors[0]).toMatchObject({ field: "api_version" });
  });

  it("2021-07 filters by its own status names, several at once", async () => {
    const { key } = await makeOrg();
    const legacy = (await keyWithVersion(key, "2021-07")).key;
    const created = await createShipmentFor(key);
    const purchased = await createShipmentFor(key);
    await purchaseFor(key, purchased);
    const ids = async (status: string, k = legacy) =>
      (await call(listShipments, "GET", "/v1/shipments", { key: k, query: { status } })).body.results.map(
        (s: { id: string }) => s.id,
      );
    expect(await ids("created")).toEqual([created.id]);
    expect(await ids("purchased,created")).toEqual([purchased.id, created.id]);
    // No shipment is ever presented as `shipped`: a valid name that matches nothing.
    expect(await ids("shipped")).toEqual([]);
    // A 2021-07 key may also use today's names; the current version knows only its own.
    expect(await ids("cancelled,purchased")).toEqual([purchased.id]);
    const legacyInCurrent = await call(listShipments, "GET", "/v1/shipments", {
      key,
      query: { status: "in-transit" },
    });
    expect(legacyInCurrent.status).toBe(400);
    expect(legacyInCurrent.body.errors[0].field).toMatch(/^status/);

    const trackersOf = await call(listTrackers, "GET", "/v1/trackers", { key: legacy, query: { status: "created" } });
    expect(trackersOf.body.results).toHaveLength(1);
    expect(LegacyTracker.parse(trackersOf.body.results[0]).status).toBe("created");
  });

  it("an idempotent replay is presented in the version of the request that replays it", async () => {
    const { key } = await makeOrg();
    const { POST } = await import("@/app/v1/shipments/route");
    const send = (version: string) =>
      call(POST, "POST", "/v1/shipments", {
        key,
        body: rateRequest(),
        headers: { "Idempotency-Key": "replay-in-version", "Shipwell-Version": version },
      });
    const first = await send("2026-11");
    expect(first.body.status).toBe("created");
    const replay = await send("2021-07");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(first.body.id);
    expect(LegacyShipment.parse(replay.body).status).toBe("created");
  });
});

describe("API keys through the API", () => {
  it("creates (key shown once), lists without the key, and revokes, all within the organization", async () => {
    const { key, keyId } = await makeOrg();
    const made = await keyWithVersion(key, "2021-07");
    expect(made.key).toMatch(/^shw_/);
    expect(made.prefix).toBe(made.key.slice(0, made.prefix.length));
    const list = await call(listKeys, "GET", "/v1/api_keys", { key });
    expect(list.body.count).toBe(2);
    expect(JSON.stringify(list.body)).not.toContain(made.key);
    expect(list.body.results.map((k: { id: string }) => k.id).sort()).toEqual([keyId, made.id].sort());

    const stranger = await makeOrg();
    const foreign = await call(revokeKey, "DELETE", `/v1/api_keys/${made.id}`, {
      key: stranger.key,
      params: { id: made.id },
    });
    expect(foreign.status).toBe(404);

    const revoked = await call(revokeKey, "DELETE", `/v1/api_keys/${made.id}`, { key, params: { id: made.id } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const refused = await call(listKeys, "GET", "/v1/api_keys", { key: made.key });
    expect(refused.status).toBe(401);
  });
});

describe("options a purplship 2021.7 integration sends", () => {
  it("are accepted as sent and echoed unchanged: booleans, numeric text, keys of its own", async () => {
    const { key } = await makeOrg();
    const options = {
      signature_confirmation: true,
      insurance: "150.00",
      declared_value: 120,
      currency: "usd",
      email_notification: true,
      shipment_date: "2021-07-01",
    };
    const shipment = await createShipmentFor(key, { options });
    expect(shipment.options).toEqual(options);
    const bought = await purchaseFor(key, shipment);
    expect(bought.status).toBe(200);
    expect(bought.body.options).toEqual(options);
  });

  it("a typed option with a value no carrier could read is a 400 naming it; the rest are checked together", async () => {
    const { key } = await makeOrg();
    const res = await call(proxyRates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({
        options: { signature_confirmation: "maybe", insurance: { amount: -5 }, saturday_delivery: "yes", foo: 1 },
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "options.insurance.amount",
      "options.saturday_delivery",
      "options.signature_confirmation",
    ]);
  });
});

describe("fields a purplship 2021.7 client sends as null or empty", () => {
  it("reads a null residential or is_document as not given (false), as for every field with a default", async () => {
    const { key } = await makeOrg();
    const body = rateRequest({
      shipper: { ...rateRequest().shipper, residential: null },
      recipient: { ...rateRequest().recipient, residential: null },
      parcels: [{ weight: 2.5, weight_unit: "KG", is_document: null }],
    });
    const rated = await call(proxyRates, "POST", "/v1/proxy/rates", { key, body });
    expect(rated.status).toBe(200);
    const offered = rated.body.rates;
    const bought = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...body, rates: offered, selected_rate_id: offered[0].id },
    });
    expect(bought.status).toBe(200);
    expect(bought.body.recipient.residential).toBe(false);
    expect(bought.body.parcels[0].is_document).toBe(false);
    const stored = await createShipmentFor(key, body);
    expect(stored.parcels).toMatchObject([{ is_document: false }]);
  });

  it("reads an empty dimension_unit as not given, as any optional text", async () => {
    const { key } = await makeOrg();
    for (const dimension_unit of ["", " "]) {
      const res = await call(proxyRates, "POST", "/v1/proxy/rates", {
        key,
        body: rateRequest({ parcels: [{ weight: 2.5, weight_unit: "KG", dimension_unit }] }),
      });
      expect(res.status, JSON.stringify(dimension_unit)).toBe(200);
    }
    // Still required, and checked, once dimensions are given.
    const res = await call(proxyRates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({
        parcels: [{ weight: 2.5, weight_unit: "KG", width: 1, height: 1, length: 1, dimension_unit: "" }],
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: "parcels[0].dimension_unit" });
  });
});
