import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { GET as openapi } from "@/app/v1/openapi.json/route";
import { POST as proxyRates } from "@/app/v1/proxy/rates/route";
import { GET as proxyTracking } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { POST as createTracker } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { GET as getTracker } from "@/app/v1/trackers/[id]/route";
import { GET as listKeys, POST as createKey } from "@/app/v1/api_keys/route";
import { DELETE as revokeKey } from "@/app/v1/api_keys/[id]/route";
import { DELETE as deleteShipment } from "@/app/v1/shipments/[id]/route";
import { GET as listWebhooks, POST as createWebhook } from "@/app/v1/webhooks/route";
import { DELETE as deleteWebhook, PATCH as patchWebhook } from "@/app/v1/webhooks/[id]/route";
import { POST as rotateWebhookSecret } from "@/app/v1/webhooks/[id]/rotate-secret/route";
import { GET as listEvents } from "@/app/v1/events/route";
import { GET as getEvent } from "@/app/v1/events/[id]/route";
import { call, makeOrg, type CallResult } from "./helpers";
import { addSandbox, createShipmentFor, purchaseFor, rateRequest } from "./factories";
import { sandboxNumbers } from "./refresh-helpers";

/**
 * The document describes what the API really answers: each answer below, success or failure, is decoded against the
 * schema the document gives for its path, method and status, as a strict generated client would.
 */
const doc = await (await openapi(new Request("http://localhost/v1/openapi.json"))).json();
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
// Components name themselves with a fragment-only $id, which JSON Schema 2020-12 tools do not accept as an id.
const components = structuredClone(doc.components);
for (const schema of Object.values(components.schemas) as Record<string, unknown>[]) delete schema.$id;

function expectDocumented(path: string, method: string, answer: CallResult) {
  const response = doc.paths[path]?.[method]?.responses?.[String(answer.status)];
  expect(response, `${method.toUpperCase()} ${path} ${answer.status} is not documented`).toBeDefined();
  const schema = response.content?.["application/json"]?.schema;
  expect(schema, `${method.toUpperCase()} ${path} ${answer.status} has no JSON schema`).toBeDefined();
  const validate = ajv.compile({ ...schema, components });
  expect(validate(answer.body) ? [] : validate.errors).toEqual([]);
}

describe("answers match the OpenAPI document", () => {
  it("proxy rates: 200, 424 with rates: [], and a 400", async () => {
    const { key } = await makeOrg();
    expectDocumented(
      "/v1/proxy/rates",
      "post",
      await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest() }),
    );
    const down = await addSandbox(key, "down", { fail_operations: ["rates"] });
    const failed = await call(proxyRates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ carrier_ids: [down.id] }),
    });
    expect(failed.status).toBe(424);
    expectDocumented("/v1/proxy/rates", "post", failed);
    const invalid = await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: { parcels: [] } });
    expect(invalid.status).toBe(400);
    expectDocumented("/v1/proxy/rates", "post", invalid);
  });

  it("shipments: created (201), purchased (200), a purchase the carrier refuses (424), an incomplete one (422)", async () => {
    const { key } = await makeOrg();
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: rateRequest() });
    expect(created.status).toBe(201);
    expectDocumented("/v1/shipments", "post", created);
    const bought = await call(purchase, "POST", `/v1/shipments/${created.body.id}/purchase`, {
      key,
      params: { id: created.body.id },
      body: { selected_rate_id: created.body.rates[0].id },
    });
    expect(bought.status).toBe(200);
    expectDocumented("/v1/shipments/{id}/purchase", "post", bought);

    const brittle = await addSandbox(key, "brittle", { fail_operations: ["ship"] });
    const s = await createShipmentFor(key, { carrier_ids: [brittle.id] });
    const refused = await call(purchase, "POST", `/v1/shipments/${s.id}/purchase`, {
      key,
      params: { id: s.id },
      body: { selected_rate_id: s.rates[0]!.id },
    });
    expect(refused.status).toBe(424);
    expectDocumented("/v1/shipments/{id}/purchase", "post", refused);

    const bare = { country_code: "GB", postal_code: "SW1A 1AA" };
    const rated = await createShipmentFor(key, { shipper: bare, recipient: bare });
    const incomplete = await call(purchase, "POST", `/v1/shipments/${rated.id}/purchase`, {
      key,
      params: { id: rated.id },
      body: { selected_rate_id: rated.rates[0]!.id },
    });
    expect(incomplete.status).toBe(422);
    expectDocumented("/v1/shipments/{id}/purchase", "post", incomplete);
  });

  it("tracking: a known number (200, 201), an unknown one (404 with messages) and an unknown carrier (404)", async () => {
    const { key } = await makeOrg();
    const [known] = sandboxNumbers(1, 30, 2);
    const [unknown] = sandboxNumbers(1, 30, 9);
    const track = (carrier: string, number: string) =>
      call(proxyTracking, "GET", `/v1/proxy/tracking/${carrier}/${number}`, {
        key,
        params: { carrier_name: carrier, tracking_number: number },
      });
    const path = "/v1/proxy/tracking/{carrier_name}/{tracking_number}";
    expectDocumented(path, "get", await track("sandbox", known!));
    const notFound = await track("sandbox", unknown!);
    expect(notFound.status).toBe(404);
    expect(notFound.body.tracking).toBeNull();
    expectDocumented(path, "get", notFound);
    const noCarrier = await track("nope", known!);
    expect(noCarrier.status).toBe(404);
    expectDocumented(path, "get", noCarrier);

    const tracker = await call(createTracker, "POST", `/v1/trackers/sandbox/${known}`, {
      key,
      params: { id: "sandbox", tracking_number: known! },
    });
    expect(tracker.status).toBe(201);
    expectDocumented("/v1/trackers/{carrier_name}/{tracking_number}", "post", tracker);
    const byNumber = await call(getTracker, "GET", `/v1/trackers/${known}`, { key, params: { id: known! } });
    expect(byNumber.status).toBe(200);
    expectDocumented("/v1/trackers/{id}", "get", byNumber);
  });

  it("API keys (201, 200, revoked 200) and the DELETE form of cancel (200)", async () => {
    const { key } = await makeOrg();
    const made = await call(createKey, "POST", "/v1/api_keys", { key, body: { name: "ci", api_version: "2021-07" } });
    expect(made.status).toBe(201);
    expectDocumented("/v1/api_keys", "post", made);
    expectDocumented("/v1/api_keys", "get", await call(listKeys, "GET", "/v1/api_keys", { key }));
    const revoked = await call(revokeKey, "DELETE", `/v1/api_keys/${made.body.id}`, {
      key,
      params: { id: made.body.id },
    });
    expect(revoked.status).toBe(200);
    expectDocumented("/v1/api_keys/{id}", "delete", revoked);

    const shipment = await createShipmentFor(key);
    const cancelled = await call(deleteShipment, "DELETE", `/v1/shipments/${shipment.id}`, {
      key,
      params: { id: shipment.id },
    });
    expect(cancelled.status).toBe(200);
    expectDocumented("/v1/shipments/{id}", "delete", cancelled);
  });

  it("webhook endpoints (201, 200, a 400 and a 404) and events of shipments and trackers (200)", async () => {
    const { key } = await makeOrg();
    const body = { url: "https://hooks.example.com/in", enabled_events: ["*"], description: "ERP" };
    const made = await call(createWebhook, "POST", "/v1/webhooks", { key, body });
    expect(made.status).toBe(201);
    expectDocumented("/v1/webhooks", "post", made);
    const invalid = await call(createWebhook, "POST", "/v1/webhooks", { key, body: { url: "ftp://x" } });
    expect(invalid.status).toBe(400);
    expectDocumented("/v1/webhooks", "post", invalid);
    expectDocumented("/v1/webhooks", "get", await call(listWebhooks, "GET", "/v1/webhooks", { key }));
    const one = { key, params: { id: made.body.id } };
    const path = `/v1/webhooks/${made.body.id}`;
    const off = await call(patchWebhook, "PATCH", path, { ...one, body: { enabled: false } });
    expect(off.status).toBe(200);
    expectDocumented("/v1/webhooks/{id}", "patch", off);
    const rotated = await call(rotateWebhookSecret, "POST", `${path}/rotate-secret`, one);
    expect(rotated.status).toBe(200);
    expectDocumented("/v1/webhooks/{id}/rotate-secret", "post", rotated);
    expectDocumented("/v1/webhooks/{id}", "delete", await call(deleteWebhook, "DELETE", path, one));
    const gone = await call(deleteWebhook, "DELETE", path, one);
    expect(gone.status).toBe(404);
    expectDocumented("/v1/webhooks/{id}", "delete", gone);

    expect((await purchaseFor(key, await createShipmentFor(key))).status).toBe(200);
    const events = await call(listEvents, "GET", "/v1/events", { key });
    expect(events.body.results.map((e: { type: string }) => e.type)).toEqual([
      "shipment.purchased",
      "tracker.created",
      "shipment.created",
    ]);
    expectDocumented("/v1/events", "get", events);
    for (const event of events.body.results) {
      const got = await call(getEvent, "GET", `/v1/events/${event.id}`, { key, params: { id: event.id } });
      expectDocumented("/v1/events/{id}", "get", got);
    }
  });
});
