import { describe, expect, it } from "vitest";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { GET as getEventRoute } from "@/app/v1/events/[id]/route";
import { POST as createKey } from "@/app/v1/api_keys/route";
import { withTransaction } from "@/lib/context";
import { Event, EventListQuery } from "@/lib/schemas/event";
import { getEvent } from "@/lib/webhooks/get-event";
import { listEvents } from "@/lib/webhooks/list-events";
import { recordEvents, type NewEvent } from "@/lib/webhooks/outbox";
import { createShipmentFor, purchaseFor } from "./factories";
import { call, makeOrg, orgCtx } from "./helpers";

/** Events through the API (docs/api.md, "Webhooks and events"): the last 30 days, newest first, per organization. */

const DAY = 24 * 60 * 60 * 1000;

async function record(orgId: string, list: Omit<NewEvent, "orgId">[], at: Date): Promise<string[]> {
  const ctx = await orgCtx(orgId);
  return withTransaction(ctx, ({ db }) =>
    recordEvents(
      db,
      list.map((e) => ({ ...e, orgId })),
      at,
    ),
  );
}

const list = (key: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  call(listEventsRoute, "GET", "/v1/events", { key, query, headers });
const get = (key: string, id: string, headers: Record<string, string> = {}) =>
  call(getEventRoute, "GET", `/v1/events/${id}`, { key, params: { id }, headers });

/** A shipment created and bought: shipment.created, tracker.created, shipment.purchased. */
async function boughtShipment(key: string) {
  const shipment = await createShipmentFor(key);
  const bought = await purchaseFor(key, shipment);
  expect(bought.status).toBe(200);
  return bought.body as { id: string; tracker_id: string; status: string; [k: string]: unknown };
}

describe("listing events", () => {
  it("answers the events real actions wrote, newest first, each as Event with the resource as data", async () => {
    const { key } = await makeOrg();
    const shipment = await boughtShipment(key);
    const res = await list(key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, next: null, previous: null });
    expect(res.body.results.map((e: Event) => e.type)).toEqual([
      "shipment.purchased",
      "tracker.created",
      "shipment.created",
    ]);
    for (const e of res.body.results) expect(Event.parse(e)).toEqual(e);
    const [purchased, tracker, createdEvent] = res.body.results;
    expect(purchased).toMatchObject({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      test_mode: true,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/),
      data: { id: shipment.id, status: "purchased", tracking_number: shipment.tracking_number, label: null },
    });
    expect(tracker.data).toMatchObject({ id: shipment.tracker_id, status: "pending", shipment_id: shipment.id });
    expect(createdEvent.data).toMatchObject({ id: shipment.id, status: "created" });

    const one = await get(key, purchased.id);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(purchased);
  });

  it("filters by type, resource, mode and creation time, and pages with the filters kept", async () => {
    const { key, orgId } = await makeOrg();
    const shipment = await boughtShipment(key);
    const now = Date.now();
    const [old] = await record(
      orgId,
      [{ type: "tracker.updated", resourceId: "trk_older", testMode: false, data: { id: "trk_older" } }],
      new Date(now - 3 * DAY),
    );
    await record(
      orgId,
      [{ type: "tracker.updated", resourceId: "trk_middle", testMode: true, data: { id: "trk_middle" } }],
      new Date(now - 2 * DAY),
    );

    const types = await list(key, { type: "shipment.created, shipment.purchased" });
    expect(types.body.results.map((e: Event) => e.type)).toEqual(["shipment.purchased", "shipment.created"]);
    const about = await list(key, { resource_id: shipment.id });
    expect(about.body.count).toBe(2);
    expect((await list(key, { resource_id: shipment.tracker_id })).body.results[0].type).toBe("tracker.created");
    const live = await list(key, { test_mode: "false" });
    expect(live.body.results.map((e: Event) => e.id)).toEqual([old]);

    const after = new Date(now - 2 * DAY).toISOString();
    const before = new Date(now - 2 * DAY + 1).toISOString();
    expect((await list(key, { created_after: after })).body.count).toBe(4);
    const exactly = await list(key, { created_after: after, created_before: before });
    expect(exactly.body.results.map((e: Event) => e.data.id)).toEqual(["trk_middle"]);
    expect((await list(key, { created_before: after })).body.results.map((e: Event) => e.id)).toEqual([old]);

    const page = await list(key, { type: "tracker.updated", limit: "1" });
    expect(page.body).toMatchObject({ count: 2, previous: null });
    expect(page.body.next).toBe("/v1/events?type=tracker.updated&limit=1&offset=1");
  });

  it("answers unknown types and parameters 400 by name", async () => {
    const { key } = await makeOrg();
    const res = await list(key, { type: "shipment.created,shipment.lost", created_after: "yesterday", sort: "asc" });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["created_after", "sort", "type"]);
    expect(res.body.errors.find((e: { field: string }) => e.field === "type").message).toMatch(/shipment\.lost/);
    const malformed = await get(key, "shp_1");
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0]).toMatchObject({ field: "id", message: "must be a evt_ id" });
  });
});

describe("the 30-day window", () => {
  it("treats an event older than 30 days as gone, before any sweep deletes it", async () => {
    const { key, orgId } = await makeOrg();
    const now = Date.now();
    const [gone] = await record(
      orgId,
      [{ type: "shipment.created", resourceId: "shp_gone", testMode: true, data: { id: "shp_gone" } }],
      new Date(now - 31 * DAY),
    );
    const [kept] = await record(
      orgId,
      [{ type: "shipment.created", resourceId: "shp_kept", testMode: true, data: { id: "shp_kept" } }],
      new Date(now - 29 * DAY),
    );
    expect((await list(key)).body.results.map((e: Event) => e.id)).toEqual([kept]);
    expect((await get(key, gone!)).status).toBe(404);
    expect((await get(key, kept!)).status).toBe(200);
  });

  it("ends exactly 30 days after the event, by the clock the verbs are given", async () => {
    const { orgId } = await makeOrg();
    const at = new Date("2031-05-01T08:00:00Z");
    const [id] = await record(
      orgId,
      [{ type: "tracker.deleted", resourceId: "trk_1", testMode: true, data: { id: "trk_1" } }],
      at,
    );
    const ctx = await orgCtx(orgId);
    const filters = EventListQuery.parse({});
    const lastMoment = new Date(at.getTime() + 30 * DAY);
    expect((await listEvents({ ctx, filters, now: lastMoment })).count).toBe(1);
    expect((await getEvent({ ctx, id: id!, now: lastMoment })).id).toBe(id);
    const after = new Date(lastMoment.getTime() + 1);
    expect((await listEvents({ ctx, filters, now: after })).count).toBe(0);
    await expect(getEvent({ ctx, id: id!, now: after })).rejects.toThrow(/does not exist/);
  });
});

describe("events in an older API version", () => {
  it("presents data's statuses in the reader's version: a 2021-07 key, or the Shipwell-Version header", async () => {
    const { key, orgId } = await makeOrg();
    const shipment = await boughtShipment(key);
    const current = (await list(key)).body.results as Event[];
    const purchased = current.find((e) => e.type === "shipment.purchased")!;
    const trackerCreated = current.find((e) => e.type === "tracker.created")!;
    // The parcel moves on: the same resources, as later changes would write them.
    const trackerData = trackerCreated.data as Record<string, unknown>;
    const onHold = {
      ...trackerData,
      status: "on_hold",
      events: [
        { date: "2031-05-02", time: "09:00", description: "Held", location: "Austin", code: "HLD", status: "on_hold" },
      ],
    };
    await record(
      orgId,
      [
        {
          type: "shipment.status_changed",
          resourceId: shipment.id,
          testMode: true,
          data: { ...purchased.data, status: "out_for_delivery" },
        },
        { type: "tracker.exception", resourceId: shipment.tracker_id, testMode: true, data: onHold },
      ],
      new Date(),
    );

    const legacyKey = await call(createKey, "POST", "/v1/api_keys", {
      key,
      body: { name: "2021.7 integration", api_version: "2021-07" },
    });
    const legacy = await list(legacyKey.body.key);
    expect(legacy.headers.get("shipwell-version")).toBe("2021-07");
    const byType = Object.fromEntries(legacy.body.results.map((e: Event) => [e.type, e]));
    expect(byType["shipment.status_changed"].data.status).toBe("in-transit");
    expect(byType["tracker.exception"].data.status).toBe("in-transit");
    expect(byType["tracker.exception"].data.events[0].status).toBe("in-transit");
    expect(byType["shipment.purchased"].data.status).toBe("purchased");
    expect(byType["tracker.created"].data.status).toBe("created"); // pending
    // Everything else is as the current version wrote it.
    expect({ ...byType["shipment.purchased"].data, status: null }).toEqual({ ...purchased.data, status: null });

    const one = await get(key, byType["tracker.exception"].id, { "Shipwell-Version": "2021-07" });
    expect(one.body.data).toMatchObject({ status: "in-transit", events: [{ status: "in-transit" }] });
    const same = await get(key, byType["tracker.exception"].id);
    expect(same.body.data).toMatchObject({ status: "on_hold", events: [{ status: "on_hold" }] });
  });
});

describe("tenancy", () => {
  it("answers another organization's event 404 and never lists it", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const shipment = await boughtShipment(a.key);
    const theirs = (await list(a.key)).body.results[0] as Event;
    expect((await get(b.key, theirs.id)).status).toBe(404);
    expect((await list(b.key)).body.count).toBe(0);
    expect((await list(b.key, { resource_id: shipment.id })).body.count).toBe(0);
  });
});
