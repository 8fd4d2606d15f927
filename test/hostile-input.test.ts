import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as listConnections, POST as createConnection } from "@/app/v1/connections/route";
import { PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { POST as proxyRates } from "@/app/v1/proxy/rates/route";
import { POST as proxyShipping } from "@/app/v1/proxy/shipping/route";
import { GET as proxyTracking } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { GET as listShipments, POST as createShipment } from "@/app/v1/shipments/route";
import { GET as listAudit } from "@/app/v1/audit_events/route";
import { GET as listEvents } from "@/app/v1/events/route";
import { GET as listTrackers } from "@/app/v1/trackers/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { sandboxAdapter } from "@/lib/carriers/sandbox/adapter";
import { call, makeOrg, type CallOptions } from "./helpers";
import { createShipmentFor, rateRequest } from "./factories";

/**
 * docs/api.md, "Requests": hostile input gets a 400 in the error envelope, naming the field, before any carrier is
 * asked or anything is written.
 */

afterEach(() => vi.restoreAllMocks());

/** The one problem a 400 reports, checked against the envelope. */
function onlyProblem(res: { status: number; body: { errors: unknown[] } }) {
  expect(res.status).toBe(400);
  expect(res.body.errors).toHaveLength(1);
  const [problem] = res.body.errors as { code: string; message: string; field: string | null }[];
  expect(problem).toEqual({ code: "validation_error", message: expect.any(String), field: expect.anything() });
  return problem!;
}

/** A rate or shipment request sent as given, with nothing rated and nothing stored after it. */
async function refusedUnrated(key: string, route: "rates" | "shipments", opts: CallOptions) {
  const rate = vi.spyOn(sandboxAdapter, "rate");
  const res =
    route === "rates"
      ? await call(proxyRates, "POST", "/v1/proxy/rates", { key, ...opts })
      : await call(createShipment, "POST", "/v1/shipments", { key, ...opts });
  expect(rate).not.toHaveBeenCalled();
  expect((await call(listShipments, "GET", "/v1/shipments", { key })).body.count).toBe(0);
  return res;
}

const nested = (levels: number, leaf: unknown = 1) => {
  let value: unknown = leaf;
  for (let i = levels; i > 0; i--) value = { [String.fromCharCode(96 + ((i - 1) % 26) + 1)]: value };
  return value as Record<string, unknown>;
};

describe("text that cannot be stored", () => {
  it("refuses a NUL or a lone surrogate in any string of the body, with its path", async () => {
    const { key } = await makeOrg();
    const cases: [Record<string, unknown>, string][] = [
      [rateRequest({ recipient: { ...rateRequest().recipient, person_name: "Bob\u0000" } }), "recipient.person_name"],
      [rateRequest({ reference: "\ud800" }), "reference"],
      [rateRequest({ options: { foo: { bar: ["ok", "x\udc00y"] } } }), "options.foo.bar[1]"],
      [rateRequest({ services: ["SBX_GROUND\u0000"] }), "services[0]"],
    ];
    for (const [body, field] of cases) {
      for (const route of ["rates", "shipments"] as const) {
        const problem = onlyProblem(await refusedUnrated(key, route, { body }));
        expect(problem.field).toBe(field);
        expect(problem.message).toMatch(/NUL|lone surrogate/);
      }
    }
  });

  it("refuses such a key name, shown without the bad character", async () => {
    const { key } = await makeOrg();
    const res = await refusedUnrated(key, "shipments", { body: rateRequest({ options: { "a\u0000b": 1 } }) });
    expect(onlyProblem(res)).toMatchObject({ field: "options.a\ufffdb", message: expect.stringMatching(/name/) });
    const surrogate = await refusedUnrated(key, "rates", { body: rateRequest({ options: { x: { "\udc00": 1 } } }) });
    expect(onlyProblem(surrogate).field).toBe("options.x.\ufffd");
  });

  it("refuses it in a connection's display_name and config, storing nothing", async () => {
    const { key } = await makeOrg();
    const bodies = [
      { carrier_name: "sandbox", carrier_id: "nul", display_name: "Main\u0000" },
      { carrier_name: "sandbox", carrier_id: "nul", config: { "\ud800": 1 } },
    ];
    for (const body of bodies) onlyProblem(await call(createConnection, "POST", "/v1/connections", { key, body }));
    expect((await call(listConnections, "GET", "/v1/connections", { key })).body.count).toBe(1);
  });

  it("refuses it in query and path parameters, declared or not", async () => {
    const { key } = await makeOrg();
    for (const [name, value] of [
      ["q", "a\u0000"],
      ["carrier_name", "\u0000sandbox"],
      ["unheard_of", "\u0000"],
    ] as const) {
      const res = await call(listShipments, "GET", "/v1/shipments", { key, query: { [name]: value } });
      expect(onlyProblem(res).field).toBe(name);
    }
    const track = vi.spyOn(sandboxAdapter, "track");
    const res = await call(proxyTracking, "GET", "/v1/proxy/tracking/sandbox/x", {
      key,
      params: { carrier_name: "sand\u0000box", tracking_number: "SBX123" },
    });
    expect(onlyProblem(res).field).toBe("carrier_name");
    expect(track).not.toHaveBeenCalled();
  });
});

describe("dates and nesting beyond what can be stored", () => {
  it("refuses dates outside the years 0001–9999, impossible days and trailing junk in list filters", async () => {
    const { key } = await makeOrg();
    for (const value of ["-200000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "0000-01-01"]) {
      for (const name of ["created_after", "created_before"]) {
        const res = await call(listShipments, "GET", "/v1/shipments", { key, query: { [name]: value } });
        // Six-digit years are not the ISO 8601 a date filter takes; year 0 is, but outside what can be stored.
        expect(onlyProblem(res)).toMatchObject({
          field: name,
          message: expect.stringMatching(/ISO 8601|0001 and 9999/),
        });
      }
    }
    for (const value of ["2020-02-30", "2020-01-01 junk", "March 7"]) {
      const res = await call(listShipments, "GET", "/v1/shipments", { key, query: { created_after: value } });
      expect(onlyProblem(res)).toMatchObject({ field: "created_after", message: expect.stringMatching(/ISO 8601/) });
    }
    const widest = await call(listShipments, "GET", "/v1/shipments", {
      key,
      query: { created_after: "0001-01-01", created_before: "9999-12-31T23:59:59Z" },
    });
    expect(widest.status).toBe(200);
  });

  it("refuses a body nested thousands of levels deep before asking any carrier", async () => {
    const { key } = await makeOrg();
    const base = JSON.stringify(rateRequest()).slice(0, -1);
    for (const levels of [5_000, 100_000]) {
      for (const [open, close] of [
        ['{"a":', "}"],
        ["[", "]"],
      ] as const) {
        const rawBody = `${base},"options":{"deep":${open.repeat(levels)}1${close.repeat(levels)}}}`;
        const headers = { "Content-Type": "application/json" };
        for (const route of ["rates", "shipments"] as const) {
          const problem = onlyProblem(await refusedUnrated(key, route, { rawBody, headers }));
          expect(problem.field).toMatch(/^options\.deep/);
          expect(problem.message).toMatch(/nested too deeply/);
        }
      }
    }
  });

  it("refuses an offset no database could skip", async () => {
    const { key } = await makeOrg();
    const res = await call(listShipments, "GET", "/v1/shipments", { key, query: { offset: "1e20" } });
    expect(onlyProblem(res).field).toBe("offset");
  });
});

describe("bounded objects", () => {
  it("limits depth to 8 levels, naming the first key too deep", async () => {
    const { key } = await makeOrg();
    const ok = await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ options: nested(8) }) });
    expect(ok.status).toBe(200);
    const res = await refusedUnrated(key, "shipments", { body: rateRequest({ options: nested(9) }) });
    expect(onlyProblem(res)).toEqual({
      code: "validation_error",
      field: "options.a.b.c.d.e.f.g.h.i",
      message: "is nested too deeply (at most 8 levels)",
    });
    const customs = await refusedUnrated(key, "shipments", {
      body: rateRequest({ customs: { content_type: "documents", options: { list: [nested(8)] } } }),
    });
    expect(onlyProblem(customs).field).toBe("customs.options.list[0].a.b.c.d.e.f.g");
  });

  it("limits the keys in all to 200", async () => {
    const { key } = await makeOrg();
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const ok = await call(proxyRates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ options: { a: keys(99), b: keys(99) } }),
    });
    expect(ok.status).toBe(200);
    const res = await refusedUnrated(key, "rates", { body: rateRequest({ options: { a: keys(100), b: keys(99) } }) });
    expect(onlyProblem(res)).toMatchObject({ field: "options", message: "must have at most 200 keys in all" });
  });

  it("limits strings and key names to 4 KB and the whole object to 32 KB as JSON", async () => {
    const { key } = await makeOrg();
    const ok = await call(proxyRates, "POST", "/v1/proxy/rates", {
      key,
      body: rateRequest({ options: { note: "é".repeat(2048) } }),
    });
    expect(ok.status).toBe(200);
    const long = await refusedUnrated(key, "shipments", { body: rateRequest({ options: { note: "é".repeat(2049) } }) });
    expect(onlyProblem(long)).toMatchObject({ field: "options.note", message: "must be at most 4096 bytes" });
    const name = await refusedUnrated(key, "shipments", { body: rateRequest({ options: { ["k".repeat(5000)]: 1 } }) });
    const problem = onlyProblem(name);
    expect(problem.field).toBe(`options.${"k".repeat(39)}…`);
    expect(problem.message).toMatch(/4096 bytes/);
    const notes = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`n${i}`, "x".repeat(4000)]));
    const big = await refusedUnrated(key, "shipments", { body: rateRequest({ options: notes }) });
    expect(onlyProblem(big)).toMatchObject({ field: "options", message: "must be at most 32 KB as JSON" });
  });

  it("bounds a connection's config and credentials the same way", async () => {
    const { key } = await makeOrg();
    const deep = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "sandbox", carrier_id: "deep", config: nested(9) },
    });
    expect(onlyProblem(deep).field).toBe("config.a.b.c.d.e.f.g.h.i");
    const secret = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "sandbox", carrier_id: "big", credentials: { api_key: "k".repeat(5000) } },
    });
    expect(onlyProblem(secret).field).toBe("credentials.api_key");
    expect(JSON.stringify(secret.body)).not.toContain("k".repeat(50));
    expect((await call(listConnections, "GET", "/v1/connections", { key })).body.count).toBe(1);
  });
});

describe("type errors and echoes", () => {
  it("says what it expected and what it received; 'is required' only when absent", async () => {
    const { key } = await makeOrg();
    const parcel = (weight: unknown) => rateRequest({ parcels: [{ weight, weight_unit: "KG" }] });
    const cases: [Record<string, unknown>, string, string][] = [
      [parcel("2"), "parcels[0].weight", "expected a number, received a string"],
      [parcel(null), "parcels[0].weight", "must not be null"],
      [parcel(undefined), "parcels[0].weight", "is required"],
      [parcel([2]), "parcels[0].weight", "expected a number, received an array"],
      [rateRequest({ services: "SBX_GROUND" }), "services", "expected an array, received a string"],
      [rateRequest({ options: [1] }), "options", "expected an object, received an array"],
      [rateRequest({ recipient: { ...rateRequest().recipient, residential: "yes" } }), "recipient.residential", ""],
    ];
    for (const [body, field, message] of cases) {
      const problem = onlyProblem(await refusedUnrated(key, "rates", { body }));
      expect(problem.field).toBe(field);
      expect(problem.message).toBe(message || "expected a boolean, received a string");
    }
  });

  it("caps every string in a list", async () => {
    const { key } = await makeOrg();
    const services = await refusedUnrated(key, "rates", { body: rateRequest({ services: ["S".repeat(101)] }) });
    expect(onlyProblem(services)).toMatchObject({ field: "services[0]", message: "must be at most 100 characters" });
    const ids = await refusedUnrated(key, "shipments", { body: rateRequest({ carrier_ids: ["c".repeat(65)] }) });
    expect(onlyProblem(ids)).toMatchObject({ field: "carrier_ids[0]", message: "must be at most 64 characters" });
  });

  it("never repeats more than a short excerpt of the input in an answer", async () => {
    const { key } = await makeOrg();
    const huge = "Z".repeat(10_000);
    const answers = [
      await call(createConnection, "POST", "/v1/connections", {
        key,
        body: { carrier_name: "sandbox", carrier_id: "strict", config: { [huge]: 1 } },
      }),
      await call(createConnection, "POST", "/v1/connections", {
        key,
        body: { carrier_name: "sandbox", carrier_id: "strict", config: { [`a${huge}`]: 1, [`b${huge}`]: 2 } },
      }),
      await call(proxyRates, "POST", "/v1/proxy/rates", {
        key,
        body: rateRequest({ parcels: [{ weight: 1, weight_unit: huge }] }),
      }),
      await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ carrier_ids: ["Z".repeat(64)] }) }),
      await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ services: ["Z".repeat(100)] }) }),
      await call(proxyTracking, "GET", "/v1/proxy/tracking/sandbox/x", {
        key,
        params: { carrier_name: "sandbox", tracking_number: "SBX123456" },
        query: { carrier_id: "Z".repeat(64) },
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(res.body)).not.toMatch(/Z{41}/);
    }
    expect(answers[0]!.body.errors[0].field).toBe(`config.${"Z".repeat(39)}…`);
  });
});

describe("no lookups through the prototype", () => {
  it("refuses a sandbox scenario named after an Object.prototype property as the carrier's own message", async () => {
    const { key } = await makeOrg();
    const offered = (await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest() })).body.rates;
    for (const scenario of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
        key,
        body: {
          ...rateRequest({ options: { sandbox_scenario: scenario } }),
          rates: offered,
          selected_rate_id: offered[0].id,
        },
      });
      expect(res.status).toBe(424);
      expect(res.body.messages).toEqual([
        expect.objectContaining({ code: "SBX_INVALID_OPTION", level: "error", message: expect.any(String) }),
      ]);
    }
  });

  it("buys a label for a city named like an Object.prototype property", async () => {
    const { key } = await makeOrg();
    const offered = (await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest() })).body.rates;
    for (const city of ["constructor", "__proto__", "valueOf"]) {
      const res = await call(proxyShipping, "POST", "/v1/proxy/shipping", {
        key,
        body: {
          ...rateRequest({ recipient: { ...rateRequest().recipient, city } }),
          rates: offered,
          selected_rate_id: offered[0].id,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.recipient.city).toBe(city);
    }
  });

  it("refuses a __proto__ key in a free-form object and stores other prototype names as given", async () => {
    const { key } = await makeOrg();
    const rawBody = JSON.stringify(rateRequest()).replace(/}$/, ',"options":{"__proto__":{"polluted":true}}}');
    const res = await refusedUnrated(key, "shipments", { rawBody, headers: { "Content-Type": "application/json" } });
    expect(onlyProblem(res)).toMatchObject({ field: "options.__proto__", message: "is not an allowed key name" });

    const options = { constructor: "c", toString: { valueOf: 1 }, hasOwnProperty: null };
    const created = await call(createShipment, "POST", "/v1/shipments", { key, body: rateRequest({ options }) });
    expect(created.status).toBe(201);
    const again = await call(getShipment, "GET", "", { key, params: { id: created.body.id } });
    expect(again.body.options).toEqual(options);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a connection config key named after an Object.prototype property instead of dropping it", async () => {
    const { key } = await makeOrg();
    const res = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "sandbox", carrier_id: "proto", config: { constructor: 1 } },
    });
    expect(onlyProblem(res)).toMatchObject({ field: "config.constructor", message: "is not a known field" });
    const conn = await call(createConnection, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "sandbox", carrier_id: "proto" },
    });
    const patched = await call(patchConnection, "PATCH", "", {
      key,
      params: { id: conn.body.id },
      body: { config: { toString: 1 } },
    });
    expect(onlyProblem(patched).field).toBe("config.toString");
  });

  it("treats carrier names, label types and statuses named like prototype properties as unknown", async () => {
    const { key } = await makeOrg();
    const track = await call(proxyTracking, "GET", "/v1/proxy/tracking/constructor/SBX123456", {
      key,
      params: { carrier_name: "constructor", tracking_number: "SBX123456" },
    });
    expect(track.status).toBe(404);
    expect(track.body.errors[0].code).toBe("carrier_not_found");
    const label = await refusedUnrated(key, "shipments", { body: rateRequest({ label_type: "constructor" }) });
    expect(onlyProblem(label).field).toBe("label_type");
    const status = await call(listShipments, "GET", "/v1/shipments", { key, query: { status: "__proto__" } });
    expect(onlyProblem(status).field).toBe("status");
  });
});

describe("what the probe of the running server found", () => {
  it("refuses a body that is not UTF-8, or declared in another charset, and stores nothing", async () => {
    const { key } = await makeOrg();
    const json = JSON.stringify(rateRequest({ reference: "Z\u00ffelda" }));
    const bytes = Buffer.from(json, "utf8");
    // The encoded ÿ (C3 BF) made invalid: C3 then a byte that cannot continue it.
    const broken = Buffer.from(bytes.toString("latin1").replace("\u00c3\u00bf", "\u00c3("), "latin1");
    const res = await createShipment(
      new Request("http://localhost/v1/shipments", {
        method: "POST",
        headers: { Authorization: `Token ${key}`, "Content-Type": "application/json" },
        body: broken,
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toMatchObject({
      code: "invalid_json",
      message: expect.stringMatching(/UTF-8/),
    });
    const latin1 = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: rateRequest(),
      headers: { "Content-Type": "application/json; charset=latin1" },
    });
    expect(latin1.status).toBe(415);
    const utf8 = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: rateRequest(),
      headers: { "Content-Type": "application/json; charset=UTF-8" },
    });
    expect(utf8.status).toBe(201);
    expect((await call(listShipments, "GET", "/v1/shipments", { key })).body.count).toBe(1);
  });

  it("refuses numbers JSON cannot write back (1e309) and paging written as anything but digits", async () => {
    const { key } = await makeOrg();
    const body = JSON.stringify(rateRequest({ options: { declared_value: 1 } })).replace(
      '"declared_value":1',
      '"declared_value":1e309',
    );
    const res = await call(createShipment, "POST", "/v1/shipments", {
      key,
      rawBody: body,
      headers: { "Content-Type": "application/json" },
    });
    expect(onlyProblem(res)).toMatchObject({ field: "options.declared_value", message: "must be a finite number" });
    for (const limit of ["0x10", "1e1", "", " 5"]) {
      const paged = await call(listShipments, "GET", "/v1/shipments", { key, query: { limit } });
      expect(paged.status, limit).toBe(400);
      expect(paged.body.errors[0].field).toBe("limit");
    }
  });

  it("a parcel sent as an array is one problem, not four", async () => {
    const { key } = await makeOrg();
    const res = await call(createShipment, "POST", "/v1/shipments", { key, body: rateRequest({ parcels: [[]] }) });
    expect(onlyProblem(res)).toMatchObject({ field: "parcels[0]", message: "expected an object, received an array" });
  });

  it("reads a list given as a repeated parameter whole, and refuses any other parameter given twice", async () => {
    const { key } = await makeOrg();
    await createShipmentFor(key);
    // The OpenAPI document's list parameters are arrays, which clients write repeated (`status=a&status=b`) unless
    // told otherwise: listing by the last value alone would answer a list nobody asked for, without a word.
    const lists = [
      [listAudit, "/v1/audit_events?action=shipment.created&action=api_key.created", "action"],
      [listEvents, "/v1/events?type=shipment.created&type=tracker.created", "type"],
      [listTrackers, "/v1/trackers?status=delivered&status=pending", "status"],
    ] as const;
    for (const [handler, path] of lists) {
      const repeated = await call(handler, "GET", path, { key });
      const commas = await call(handler, "GET", path.replace(/&\w+=/, ","), { key });
      expect(repeated.status, path).toBe(200);
      expect(repeated.body.results, path).toEqual(commas.body.results);
    }
    const actions = (await call(listAudit, "GET", lists[0][1], { key })).body.results.map(
      (e: { action: string }) => e.action,
    );
    expect(actions).toEqual(["shipment.created", "api_key.created"]);
    // Each value is checked, the first as much as the last.
    const unknown = await call(listAudit, "GET", "/v1/audit_events?action=shipment.eaten&action=api_key.created", {
      key,
    });
    expect(onlyProblem(unknown).field).toBe("action");
    const nul = await call(listShipments, "GET", "/v1/shipments?status=%00&status=created", { key });
    expect(onlyProblem(nul).field).toBe("status");
    // One value only: which of two was meant cannot be guessed.
    for (const [handler, path, field] of [
      [listAudit, "/v1/audit_events?actor_id=key_a&actor_id=key_b", "actor_id"],
      [listAudit, "/v1/audit_events?limit=1&limit=100", "limit"],
      [listShipments, "/v1/shipments?q=a&q=b", "q"],
    ] as const) {
      const res = await call(handler, "GET", path, { key });
      expect(onlyProblem(res), path).toMatchObject({ field, message: expect.stringMatching(/more than once/) });
    }
  });

  it("a __proto__ query parameter is a parameter like any other: unknown, and checked for NUL", async () => {
    const { key } = await makeOrg();
    for (const value of ["1", "%00"]) {
      const res = await call(listShipments, "GET", `/v1/shipments?__proto__=${value}`, { key });
      expect(res.status, value).toBe(400);
      expect(res.body.errors[0].field).toBe("__proto__");
    }
  });
});
