import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { POST as trackPost } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { NOT_FOUND_SCENARIO } from "@/lib/carriers/sandbox/scenarios";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import { getDb } from "@/lib/db/client";
import { carrierConnections, trackers } from "@/lib/db/schema";
import { forgetOrgConnections } from "@/lib/connections/cache";
import { call, makeOrg } from "./helpers";
import { addSandbox } from "./factories";

/**
 * POST /v1/trackers/auto/{tracking_number}: the carrier told from the number (lib/carriers/detect.ts), among the
 * organization's connections (lib/trackers/create-tracker.ts).
 */

const detect = (key: string, number: string, query?: Record<string, string>) =>
  call(trackPost, "POST", `/v1/trackers/auto/${number}`, {
    key,
    params: { id: "auto", tracking_number: number },
    query,
  });
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

describe("POST /v1/trackers/auto/{tracking_number}", () => {
  it("tells the sandbox from its number, creates the tracker, and answers the same one again", async () => {
    const { key } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: daysAgo(3), scenario: 0 });
    const first = await detect(key, number);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ carrier_name: "sandbox", tracking_number: number });
    const again = await detect(key, number);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });

  it("a number of a carrier the organization has no connection for: 404 carrier_not_found naming the carrier", async () => {
    const { key } = await makeOrg();
    const res = await detect(key, "1Z5R89390357567127");
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({
      code: "carrier_not_found",
      message: "1Z5R89390357567127 looks like a ups number, and no active connection of that carrier can track it.",
    });
  });

  it("a number no carrier's format allows: 404 carrier_not_found asking for the carrier", async () => {
    const { key } = await makeOrg();
    const res = await detect(key, "NOT-A-NUMBER-1");
    expect(res.status).toBe(404);
    expect(res.body.errors[0].message).toBe(
      "Cannot tell the carrier from NOT-A-NUMBER-1: name it (POST /v1/trackers/{carrier_name}/{tracking_number}).",
    );
  });

  it("narrowed by carrier_id: only that connection's carrier is a candidate", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "second");
    const number = makeTrackingNumber({ purchasedAt: daysAgo(2), scenario: 0 });
    const res = await detect(key, number, { carrier_id: "second" });
    expect(res.status).toBe(201);
    expect(res.body.carrier_id).toBe("second");
    const none = await detect(key, makeTrackingNumber({ purchasedAt: daysAgo(2), scenario: 1 }), {
      carrier_id: "nothing-here",
    });
    expect(none.status).toBe(404);
    expect(none.body.errors[0].message).toContain("no active connection matching nothing-here");
  });

  it("every candidate not knowing the number: the carrier's tracking_not_found, nothing stored", async () => {
    const { key, orgId } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: daysAgo(2), scenario: NOT_FOUND_SCENARIO });
    const res = await detect(key, number);
    expect(res.status).toBe(404);
    expect(res.body.messages[0]).toMatchObject({ code: "tracking_not_found", carrier_name: "sandbox" });
    const db = await getDb();
    expect(await db.select().from(trackers).where(eq(trackers.orgId, orgId))).toHaveLength(0);
  });

  it("answers a tracker the organization already keeps for the number, even under a carrier it cannot use now", async () => {
    const { key, orgId } = await makeOrg();
    const number = makeTrackingNumber({ purchasedAt: daysAgo(4), scenario: 0 });
    const first = await detect(key, number);
    expect(first.status).toBe(201);
    const db = await getDb();
    await db.update(carrierConnections).set({ active: false }).where(eq(carrierConnections.orgId, orgId));
    forgetOrgConnections(orgId);
    const again = await detect(key, number);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });
});
