import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { shipments, trackers, trackingEvents } from "@/lib/db/schema";
import { labelSpend, type CarrierSpend } from "@/lib/shipments/label-spend";
import { trackerOverview } from "@/lib/trackers/tracker-overview";
import { makeOrg, orgCtx } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

const DAY = 24 * 60 * 60 * 1000;
const until = new Date(Date.UTC(2031, 0, 31)); // the window: January 2031 (UTC days), ending before Jan 31
const since = new Date(until.getTime() - 30 * DAY);

/** A bought label whose shipment was created at `at`, charged `charge` in `currency`, in `testMode`. */
async function labelAt(
  org: { key: string; orgId: string },
  at: Date,
  charge: number,
  { currency = "USD", testMode = true, service }: { currency?: string; testMode?: boolean; service?: string } = {},
) {
  const s = await createShipmentFor(org.key);
  expect((await purchaseFor(org.key, s)).status).toBe(200);
  const db = await getDb();
  await db
    .update(shipments)
    .set({
      createdAt: at,
      testMode,
      ...(service ? { service } : {}),
      selectedRate: sql`jsonb_set(jsonb_set(${shipments.selectedRate}, '{total_charge}', ${JSON.stringify(charge)}::jsonb), '{currency}', ${JSON.stringify(currency)}::jsonb)`,
    })
    .where(and(eq(shipments.orgId, org.orgId), eq(shipments.id, s.id)));
  const [row] = await db.select().from(shipments).where(eq(shipments.id, s.id));
  return row!;
}

describe("labelSpend (the overview's label figures)", () => {
  it("sums per day, mode and currency, never across currencies, and only the organization's bought labels", async () => {
    const org = await makeOrg();
    const day = (d: number, h = 12) => new Date(Date.UTC(2031, 0, d, h));
    await labelAt(org, day(3), 10.25);
    await labelAt(org, day(3, 23), 4.5);
    await labelAt(org, day(3), 7, { currency: "EUR" });
    await labelAt(org, day(30), 20, { testMode: false });
    await labelAt(org, day(1, 0), 99); // the window's first instant: counted
    const lost = await labelAt(org, day(30), 0.5, { testMode: false });
    // The carrier lost it: the label was bought all the same.
    await (await getDb()).update(shipments).set({ status: "lost" }).where(eq(shipments.id, lost.id));
    await labelAt(org, new Date(Date.UTC(2030, 11, 31)), 1); // outside
    const voided = await labelAt(org, day(3), 50);
    await (await getDb()).update(shipments).set({ status: "cancelled" }).where(eq(shipments.id, voided.id));
    await createShipmentFor(org.key); // a draft: no label
    const other = await makeOrg();
    await labelAt(other, day(3), 1000);

    const ctx = await orgCtx(org.orgId);
    const { daily } = await labelSpend({ ctx, since, until, timeZone: "UTC" });
    expect(daily).toEqual([
      { day: "2031-01-01", testMode: true, currency: "USD", labels: 1, spend: 99 },
      { day: "2031-01-03", testMode: true, currency: "EUR", labels: 1, spend: 7 },
      { day: "2031-01-03", testMode: true, currency: "USD", labels: 2, spend: 14.75 },
      { day: "2031-01-30", testMode: false, currency: "USD", labels: 2, spend: 20.5 },
    ]);

    // Days are the clerk's: 23:00 UTC on the 3rd is the 4th in Tokyo.
    const tokyo = await labelSpend({ ctx, since, until, timeZone: "Asia/Tokyo" });
    expect(tokyo.daily.filter((d) => d.currency === "USD" && d.testMode)).toEqual([
      { day: "2031-01-01", testMode: true, currency: "USD", labels: 1, spend: 99 },
      { day: "2031-01-03", testMode: true, currency: "USD", labels: 1, spend: 10.25 },
      { day: "2031-01-04", testMode: true, currency: "USD", labels: 1, spend: 4.5 },
    ]);
  });

  it("breaks spend down by carrier and service, per currency and mode", async () => {
    const org = await makeOrg();
    const at = new Date(Date.UTC(2031, 0, 10));
    await labelAt(org, at, 5, { service: "SBX_GROUND" });
    await labelAt(org, at, 6, { service: "SBX_GROUND" });
    await labelAt(org, at, 30, { service: "SBX_OVERNIGHT" });
    await labelAt(org, at, 8, { service: "SBX_GROUND", currency: "EUR" });
    await labelAt(org, at, 9, { service: "SBX_GROUND", testMode: false });
    const other = await makeOrg();
    await labelAt(other, at, 500);

    const { carriers } = await labelSpend({ ctx: await orgCtx(org.orgId), since, until, timeZone: "UTC" });
    const strip = ({ serviceName: _, ...s }: CarrierSpend["services"][number]) => s;
    expect(carriers.map((c) => ({ ...c, services: c.services.map(strip) }))).toEqual([
      {
        testMode: true,
        carrier: "sandbox",
        currency: "USD",
        labels: 3,
        spend: 41,
        services: [
          { service: "SBX_OVERNIGHT", currency: "USD", labels: 1, spend: 30 },
          { service: "SBX_GROUND", currency: "USD", labels: 2, spend: 11 },
        ],
      },
      {
        testMode: false,
        carrier: "sandbox",
        currency: "USD",
        labels: 1,
        spend: 9,
        services: [{ service: "SBX_GROUND", currency: "USD", labels: 1, spend: 9 }],
      },
      {
        testMode: true,
        carrier: "sandbox",
        currency: "EUR",
        labels: 1,
        spend: 8,
        services: [{ service: "SBX_GROUND", currency: "EUR", labels: 1, spend: 8 }],
      },
    ]);
  });
});

describe("trackerOverview (in transit, on-time rate, open exceptions)", () => {
  async function trackerOf(
    org: { key: string; orgId: string },
    set: Partial<typeof trackers.$inferInsert>,
    delivered?: string,
  ) {
    const row = await labelAt(org, new Date(Date.UTC(2031, 0, 5)), 5);
    const db = await getDb();
    await db
      .update(trackers)
      .set({ createdAt: new Date(Date.UTC(2031, 0, 5)), ...set })
      .where(eq(trackers.id, row.trackerId!));
    if (delivered) {
      await db.insert(trackingEvents).values({
        trackerId: row.trackerId!,
        fingerprint: `delivered-${row.trackerId}`,
        orgId: org.orgId,
        occurredAt: new Date(`${delivered}T15:00:00Z`),
        date: delivered,
        time: "15:00",
        description: "Delivered",
        location: "Austin, TX, US",
        code: "DL",
        status: "delivered",
      });
    }
    return row;
  }

  it("counts on time against the estimate, states its basis, and lists open exceptions of this organization only", async () => {
    const org = await makeOrg();
    await trackerOf(org, { status: "delivered", estimatedDelivery: "2031-01-09" }, "2031-01-08"); // early
    await trackerOf(org, { status: "delivered", estimatedDelivery: "2031-01-09" }, "2031-01-09"); // on the day
    await trackerOf(org, { status: "delivered", estimatedDelivery: "2031-01-09" }, "2031-01-10"); // late
    await trackerOf(org, { status: "delivered", estimatedDelivery: null }, "2031-01-10"); // no estimate
    await trackerOf(org, { status: "in_transit" });
    await trackerOf(org, { status: "out_for_delivery" });
    const held = await trackerOf(org, { status: "on_hold" });
    const lost = await trackerOf(org, { status: "lost", createdAt: new Date(Date.UTC(2031, 0, 6)) }); // a claim to file
    await trackerOf(org, { status: "delivery_failed", retiredAt: new Date() }); // retired: no longer open
    await trackerOf(org, { status: "in_transit", testMode: false }); // the other mode
    const other = await makeOrg();
    await trackerOf(other, { status: "on_hold" });
    await trackerOf(other, { status: "in_transit" });

    const result = await trackerOverview({ ctx: await orgCtx(org.orgId), since, until, testMode: true });
    expect(result.inTransit).toBe(2);
    expect(result.onTime).toEqual({ onTime: 2, basis: 3, withoutEstimate: 1 });
    expect(result.exceptions.count).toBe(2);
    expect(result.exceptions.latest.map((e) => [e.id, e.status, e.shipmentId])).toEqual([
      [lost.trackerId, "lost", lost.id],
      [held.trackerId, "on_hold", held.id],
    ]);
    const live = await trackerOverview({ ctx: await orgCtx(org.orgId), since, until, testMode: false });
    expect(live.inTransit).toBe(1);
    expect(live.onTime.basis).toBe(0);
  });
});
