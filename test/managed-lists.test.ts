import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { GET as listShipments } from "@/app/v1/shipments/route";
import { GET as listTrackers } from "@/app/v1/trackers/route";
import { POST as trackPost } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import { getDb } from "@/lib/db/client";
import { shipments } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/rows";
import { call, makeOrg, type TestOrg } from "./helpers";
import { createShipmentFor, purchaseFor, usRecipient } from "./factories";

let org: TestOrg;
const made: { id: string; reference: string }[] = [];
let purchased: { id: string; tracking_number: string };

const list = (query: Record<string, string> = {}) =>
  call(listShipments, "GET", "/v1/shipments", { key: org.key, query });
const ids = (res: { body: { results: { id: string }[] } }) => res.body.results.map((r) => r.id);

beforeAll(async () => {
  org = await makeOrg("Lists");
  const cities = ["Austin", "Denver", "Boston", "Austin", "Seattle"];
  for (const [i, city] of cities.entries()) {
    const s = await createShipmentFor(org.key, {
      reference: `ORD-${i}`,
      recipient: { ...usRecipient, city, person_name: i === 2 ? "Zoë O'Brien" : "Bob Receiver" },
    });
    made.push({ id: s.id, reference: `ORD-${i}` });
  }
  purchased = (
    await purchaseFor(org.key, { id: made[1]!.id, rates: (await list({ reference: "ORD-1" })).body.results[0].rates })
  ).body.shipment;
  // Spread creation times so the date filters have something to cut: ORD-0 oldest … ORD-4 newest.
  const db = await getDb();
  for (const [i, s] of made.entries()) {
    await db
      .update(shipments)
      .set({ createdAt: new Date(Date.UTC(2026, 0, 1 + i * 10)) })
      .where(eq(shipments.id, s.id));
  }
});

describe("GET /v1/shipments", () => {
  it("pages newest first with count, next and previous", async () => {
    const first = await list({ limit: "2" });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(5);
    expect(ids(first)).toEqual([made[4]!.id, made[3]!.id]);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe("/v1/shipments?limit=2&offset=2");
    const middle = await list({ limit: "2", offset: "2" });
    expect(ids(middle)).toEqual([made[2]!.id, made[1]!.id]);
    expect(middle.body.previous).toBe("/v1/shipments?limit=2&offset=0");
    const last = await list({ limit: "2", offset: "4" });
    expect(ids(last)).toEqual([made[0]!.id]);
    expect(last.body.next).toBeNull();
    expect(last.body.results[0].rates.length).toBeGreaterThan(0);
    const beyond = await list({ offset: "50" });
    expect(beyond.body).toMatchObject({ count: 5, results: [], next: null });
  });

  it("keeps filters in the links and refuses bad paging", async () => {
    const res = await list({ limit: "1", status: "created" });
    expect(res.body.next).toBe("/v1/shipments?limit=1&status=created&offset=1");
    const bad = await list({ limit: "0", offset: "-1", status: "misplaced", created_after: "yesterday" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "created_after",
      "limit",
      "offset",
      "status",
    ]);
  });

  it("filters by status, carrier_name, tracking_number, reference and creation time", async () => {
    expect(ids(await list({ status: "purchased" }))).toEqual([made[1]!.id]);
    expect((await list({ status: "created" })).body.count).toBe(4);
    expect(ids(await list({ carrier_name: "sandbox" }))).toEqual([made[1]!.id]);
    expect(ids(await list({ tracking_number: purchased.tracking_number.toLowerCase() }))).toEqual([made[1]!.id]);
    expect(ids(await list({ reference: "ORD-3" }))).toEqual([made[3]!.id]);
    expect(ids(await list({ created_after: "2026-01-15", created_before: "2026-02-01" }))).toEqual([
      made[3]!.id,
      made[2]!.id,
    ]);
    expect(ids(await list({ created_before: "2026-01-01T00:00:01Z" }))).toEqual([made[0]!.id]);
  });

  it("filters by several statuses, test_mode, carrier_id (friendly or car_ id) and service", async () => {
    expect((await list({ status: "created,purchased" })).body.count).toBe(5);
    expect(ids(await list({ status: "purchased, cancelled" }))).toEqual([made[1]!.id]);
    expect((await list({ test_mode: "true" })).body.count).toBe(5);
    expect((await list({ test_mode: "false" })).body.count).toBe(0);
    const connectionId = (purchased as unknown as { selected_rate: { carrier_ref: string } }).selected_rate.carrier_ref;
    expect(ids(await list({ carrier_id: "sandbox" }))).toEqual([made[1]!.id]);
    expect(ids(await list({ carrier_id: connectionId }))).toEqual([made[1]!.id]);
    expect((await list({ carrier_id: "elsewhere" })).body.count).toBe(0);
    const service = (purchased as unknown as { service: string }).service;
    expect(ids(await list({ service }))).toEqual([made[1]!.id]);
    expect(ids(await list({ service: service.toLowerCase() }))).toEqual([]);
  });

  it("refuses an unknown query parameter, naming it, instead of ignoring it", async () => {
    const res = await list({ stauts: "created", carrier: "sandbox" });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["carrier", "stauts"]);
    const { GET } = await import("@/app/v1/shipments/[id]/route");
    const one = await call(GET, "GET", `/v1/shipments/${made[0]!.id}`, {
      key: org.key,
      params: { id: made[0]!.id },
      query: { expand: "rates" },
    });
    expect(one.status).toBe(400);
    expect(one.body.errors[0]).toMatchObject({ code: "validation_error", field: "expand" });
  });

  it("q searches reference, tracking number and the recipient's name, city and postal code", async () => {
    expect(ids(await list({ q: "austin" }))).toEqual([made[3]!.id, made[0]!.id]);
    expect(ids(await list({ q: "o'brien" }))).toEqual([made[2]!.id]);
    expect(ids(await list({ q: "ord-4" }))).toEqual([made[4]!.id]);
    expect(ids(await list({ q: purchased.tracking_number.slice(-8) }))).toEqual([made[1]!.id]);
    expect((await list({ q: "78701" })).body.count).toBe(5);
    expect((await list({ q: "%" })).body.count).toBe(0);
  });

  it("has a trigram index for q on both engines (drizzle/0005)", async () => {
    const db = await getDb();
    const rows = rowsOf(
      await db.execute(
        sql`select indexname from pg_indexes where tablename = 'shipments' and indexname = 'shipments_search_trgm'`,
      ),
    );
    expect(rows).toHaveLength(1);
  });
});

describe("GET /v1/trackers", () => {
  it("pages and filters by status, carrier_name, tracking_number and delivered", async () => {
    const { key } = await makeOrg("Tracker lists");
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    const numbers = [
      makeTrackingNumber({ purchasedAt: days(10), scenario: 0 }),
      makeTrackingNumber({ purchasedAt: days(10), scenario: 2 }),
      makeTrackingNumber({ purchasedAt: days(10), scenario: 3 }),
    ];
    for (const n of numbers) {
      const res = await call(trackPost, "POST", `/v1/trackers/sandbox/${n}`, {
        key,
        params: { id: "sandbox", tracking_number: n },
      });
      expect(res.status).toBe(201);
    }
    const get = (query: Record<string, string> = {}) => call(listTrackers, "GET", "/v1/trackers", { key, query });
    const all = await get({ limit: "2" });
    expect(all.body.count).toBe(3);
    expect(all.body.results.map((t: { tracking_number: string }) => t.tracking_number)).toEqual([
      numbers[2],
      numbers[1],
    ]);
    expect(all.body.next).toBe("/v1/trackers?limit=2&offset=2");
    expect(
      (await get({ delivered: "true" })).body.results.map((t: { tracking_number: string }) => t.tracking_number),
    ).toEqual([numbers[0]]);
    expect((await get({ delivered: "false" })).body.count).toBe(2);
    expect((await get({ status: "out_for_delivery" })).body.results[0].tracking_number).toBe(numbers[2]);
    expect((await get({ tracking_number: numbers[1]! })).body.count).toBe(1);
    expect((await get({ carrier_name: "sandbox" })).body.count).toBe(3);
    expect((await get({ carrier_name: "ups" })).body.count).toBe(0);
    expect((await get({ status: "misplaced" })).status).toBe(400);
    expect((await get({ status: "delivered,out_for_delivery" })).body.count).toBe(2);
    expect((await get({ test_mode: "true", carrier_id: "sandbox" })).body.count).toBe(3);
    expect((await get({ test_mode: "false" })).body.count).toBe(0);
    expect((await get({ created_after: new Date(Date.now() - 60_000).toISOString() })).body.count).toBe(3);
    expect((await get({ created_before: "2020-01-01" })).body.count).toBe(0);
    expect((await get({ shipment: "x" })).body.errors[0]).toMatchObject({ field: "shipment" });
  });
});
