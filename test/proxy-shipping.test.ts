import { afterEach, describe, expect, it, vi } from "vitest";
import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { Shipment } from "@/lib/schemas/shipment";
import { call, makeOrg } from "./helpers";
import { addSandbox, rateRequest } from "./factories";

async function quote(key: string, extra: Record<string, unknown> = {}) {
  const res = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest(extra) });
  expect(res.status).toBe(200);
  return res.body.rates as { id: string; service: string; total_charge: number; carrier_ref: string }[];
}

const labelBytes = (label: string) => Buffer.from(label.replace(/\n/g, ""), "base64");

afterEach(() => vi.restoreAllMocks());

describe("POST /v1/proxy/shipping", () => {
  it("buys a PDF label and answers a purchased Shipment with every field, nothing stored", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    const chosen = offered[0]!;
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: chosen.id, reference: "ORDER-1001" },
    });
    expect(res.status).toBe(200);
    const shipment = Shipment.strict().parse(res.body);
    expect(shipment).toMatchObject({
      id: expect.stringMatching(/^shp_[0-9a-f]{32}$/),
      status: "purchased",
      carrier_name: "sandbox",
      carrier_id: "sandbox",
      selected_rate_id: chosen.id,
      service: chosen.service,
      label_type: "PDF",
      reference: "ORDER-1001",
      test_mode: true,
      messages: [],
      tracker_id: null,
      services: [],
    });
    expect(shipment.tracking_number).toMatch(/^SBX\d{21}$/);
    expect(shipment.tracking_url).toBe(`/v1/proxy/tracking/sandbox/${shipment.tracking_number}`);
    expect(shipment.selected_rate!.id).toBe(chosen.id);
    expect(shipment.selected_rate!.total_charge).toBe(chosen.total_charge);
    expect(shipment.rates).toHaveLength(offered.length);
    expect(shipment.shipper.id).toBeNull();
    expect(shipment.parcels[0]!.id).toBeNull();
    expect(shipment.meta).toMatchObject({ rate_provider: "sandbox", service_name: expect.any(String) });
    expect(shipment.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);

    const lines = shipment.label!.split("\n");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => l.length <= 76)).toBe(true);
    expect(lines.slice(0, -1).every((l) => l.length === 76)).toBe(true);
    const pdf = await PDFDocument.load(labelBytes(shipment.label!));
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([288, 432]);
  });

  it("buys ZPL and PNG labels that are real files of that type", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    const zpl = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id, label_type: "ZPL" },
    });
    expect(zpl.status).toBe(200);
    expect(zpl.body.label_type).toBe("ZPL");
    const text = labelBytes(zpl.body.label).toString("utf8").trim();
    expect(text.startsWith("^XA")).toBe(true);
    expect(text.endsWith("^XZ")).toBe(true);
    expect(text).toContain(zpl.body.tracking_number);

    const png = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id, label_type: "png" },
    });
    expect(png.status).toBe(200);
    const image = PNG.sync.read(labelBytes(png.body.label));
    expect(image.width).toBeGreaterThan(0);
  });

  it("requires selected_rate_id to be one of the given rates", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: "rat_" + "f".repeat(32) },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { code: "validation_error", field: "selected_rate_id", message: expect.any(String) },
    ]);
    const missing = await call(shipping, "POST", "/v1/proxy/shipping", { key, body: rateRequest() });
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["rates", "selected_rate_id"]);
  });

  it("refuses a rate quoted by another organization's connection", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const offered = await quote(a.key);
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key: b.key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe("carrier_not_found");
  });

  it("answers 424 with the carrier's messages when the purchase fails", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "no-labels", { fail_operations: ["ship"] });
    const offered = await quote(key, { carrier_ids: ["no-labels"] });
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(424);
    expect(res.body.messages[0]).toMatchObject({
      carrier_name: "sandbox",
      carrier_id: "no-labels",
      code: "carrier_unavailable",
    });
  });

  it("validates the selected rate field by field (the others are the client's copy)", async () => {
    const { key } = await makeOrg();
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: {
        ...rateRequest(),
        selected_rate_id: "r1",
        rates: [{ id: "r1", carrier_name: "sandbox", carrier_ref: "nope" }],
        label_type: "GIF",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["label_type", "rates[0].carrier_ref", "rates[0].service"].sort(),
    );
  });

  it("buys exactly one label when the same Idempotency-Key arrives twice at once", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    // Hold the first purchase inside the carrier until the second request has been answered.
    const original = sandboxAdapter.ship.bind(sandboxAdapter);
    let entered!: () => void;
    const inCarrier = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ship = vi.spyOn(sandboxAdapter, "ship").mockImplementation(async (ctx, req) => {
      entered();
      await gate;
      return original(ctx, req);
    });
    const body = { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id };
    const headers = { "Idempotency-Key": "label-race" };
    const first = call(shipping, "POST", "/v1/proxy/shipping", { key, headers, body });
    await inCarrier;
    const second = await call(shipping, "POST", "/v1/proxy/shipping", { key, headers, body });
    expect(second.status).toBe(409);
    expect(second.body.errors[0].code).toBe("idempotency_in_progress");
    release();
    expect((await first).status).toBe(200);
    expect(ship).toHaveBeenCalledTimes(1);
    const replay = await call(shipping, "POST", "/v1/proxy/shipping", { key, headers, body });
    expect(replay.body.tracking_number).toBe((await first).body.tracking_number);
  });

  it("replays a carrier refusal under the same Idempotency-Key without asking the carrier again", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "refuses", { fail_operations: ["ship"] });
    const offered = await quote(key, { carrier_ids: ["refuses"] });
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const body = { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id };
    const headers = { "Idempotency-Key": "refused-1" };
    const first = await call(shipping, "POST", "/v1/proxy/shipping", { key, headers, body });
    const again = await call(shipping, "POST", "/v1/proxy/shipping", { key, headers, body });
    expect(first.status).toBe(424);
    expect(again.status).toBe(424);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(ship).toHaveBeenCalledTimes(1);
  });

  it("refuses a rate whose connection has been deactivated since it was quoted", async () => {
    const { key } = await makeOrg();
    const conn = await addSandbox(key, "retired");
    const offered = await quote(key, { carrier_ids: ["retired"] });
    await call(patchConnection, "PATCH", "", { key, params: { id: conn.id }, body: { active: false } });
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe("carrier_not_found");
  });

  it("replays an Idempotency-Key without buying a second label", async () => {
    const { key } = await makeOrg();
    const offered = await quote(key);
    const ship = vi.spyOn(sandboxAdapter, "ship");
    const body = { ...rateRequest(), rates: offered, selected_rate_id: offered[0]!.id };
    const headers = { "Idempotency-Key": "label-1" };
    const first = await call(shipping, "POST", "/v1/proxy/shipping", { key, headers, body });
    const second = await call(shipping, "POST", "/v1/proxy/shipping", { key, headers, body });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.tracking_number).toBe(first.body.tracking_number);
    expect(second.body.label).toBe(first.body.label);
    expect(ship).toHaveBeenCalledTimes(1);
  });

  it("echoes a trimmed rate with every Rate meta key, estimated_delivery null rather than dropped", async () => {
    const { key } = await makeOrg();
    const offered = (await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest() })).body.rates;
    const [first, second] = offered;
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: {
        ...rateRequest(),
        rates: [{ id: first.id, service: first.service, carrier_ref: first.carrier_ref }, second],
        selected_rate_id: second.id,
      },
    });
    expect(res.status).toBe(200);
    const echoed = Shipment.parse(res.body).rates[0]!;
    expect(echoed.meta).toEqual({
      service_name: first.service,
      rate_provider: "",
      carrier_connection_id: first.carrier_ref,
      estimated_delivery: null,
    });
  });
});
