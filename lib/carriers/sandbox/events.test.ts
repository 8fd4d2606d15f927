import { describe, expect, it } from "vitest";
import type { TrackingResult } from "@/lib/carriers/types";
import { plannedJourney, statusAt, trackingAt } from "@/lib/carriers/sandbox/events";
import { countryIndex } from "@/lib/carriers/sandbox/locations";
import {
  makeTrackingNumber,
  parseTrackingNumber,
  type TrackingNumberParts,
} from "@/lib/carriers/sandbox/tracking-number";

// At pace 60 one simulated hour passes per real minute, so a step scheduled at N simulated hours happens N real
// minutes after purchase — easy to pick instants by hand.
const PACE = 60;
const purchasedAt = new Date("2024-03-04T15:00:00Z"); // 10:00 in New York, 07:00 in Los Angeles
const US = countryIndex("US");
const GB = countryIndex("GB");

function parts(scenario: number, international = false): TrackingNumberParts {
  // New York (city 0) → Los Angeles (city 1), or New York → London.
  const n = makeTrackingNumber({
    purchasedAt,
    scenario,
    originCountry: US,
    originCity: 0,
    destinationCountry: international ? GB : US,
    destinationCity: international ? 0 : 1,
    serial: 0,
  });
  return parseTrackingNumber(n)!;
}

const at = (minutes: number): Date => new Date(purchasedAt.getTime() + minutes * 60_000);

function track(scenario: number, minutes: number, international = false): TrackingResult {
  const p = parts(scenario, international);
  return trackingAt("SBX-TEST", p, at(minutes), PACE);
}

const codes = (r: TrackingResult): string[] => r.events.map((e) => e.code);

describe("normal domestic journey (scenario 0)", () => {
  it("starts with the label-created event only", () => {
    const r = track(0, 0);
    expect(r.status).toBe("pending");
    expect(r.events).toEqual([
      {
        date: "2024-03-04",
        time: "10:00",
        description: "Label created, awaiting item",
        location: "New York, NY, US",
        code: "SBX-LC",
        status: "pending",
        occurred_at: "2024-03-04T15:00:00.000Z",
      },
    ]);
    expect(r.estimated_delivery).toBe("2024-03-04");
    expect(r.meta).toMatchObject({
      scenario: "delivered",
      international: false,
      origin: "New York, NY, US",
      destination: "Los Angeles, CA, US",
    });
  });

  it("advances with time, newest event first", () => {
    expect(track(0, 2).status).toBe("pending");
    expect(track(0, 3).status).toBe("picked_up");
    expect(track(0, 8).status).toBe("in_transit");
    const atHub = track(0, 20);
    expect(codes(atHub)).toEqual(["SBX-AH", "SBX-DO", "SBX-PU", "SBX-LC"]);
    expect(atHub.events[0]).toMatchObject({
      description: "Arrived at sort facility",
      location: "Memphis, TN, US",
      time: "09:20",
      status: "in_transit",
    });
    expect(track(0, 49).status).toBe("in_transit");
    expect(track(0, 50).status).toBe("out_for_delivery");
    const done = track(0, 55);
    expect(done.status).toBe("delivered");
    expect(codes(done)).toEqual(["SBX-DL", "SBX-OD", "SBX-AD", "SBX-DH", "SBX-AH", "SBX-DO", "SBX-PU", "SBX-LC"]);
    // Local time of the destination (PST): 15:55Z → 07:55.
    expect(done.events[0]).toMatchObject({
      description: "Delivered, front door",
      location: "Los Angeles, CA, US",
      date: "2024-03-04",
      time: "07:55",
      occurred_at: "2024-03-04T15:55:00.000Z",
    });
    expect(done.estimated_delivery).toBe("2024-03-04");
    // Nothing more happens afterwards.
    expect(track(0, 100_000).events).toEqual(done.events);
  });

  it("orders events strictly newest first and never reports the future", () => {
    const r = track(0, 30);
    const times = r.events.map((e) => Date.parse(e.occurred_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(Math.max(...times)).toBeLessThanOrEqual(at(30).getTime());
  });

  it("is deterministic for a number and an instant", () => {
    expect(track(0, 33)).toEqual(track(0, 33));
  });

  it("scales with pace: at pace 1 the parcel is picked up three real hours after purchase", () => {
    const p = parts(0);
    expect(statusAt(p, at(179), 1)).toBe("pending");
    expect(statusAt(p, at(180), 1)).toBe("picked_up");
    expect(statusAt(p, at(55 * 60), 1)).toBe("delivered");
  });

  it("scenario 4 is the same journey as 0", () => {
    expect(plannedJourney({ scenario: 4, international: false, serial: 0 })).toEqual(
      plannedJourney({ scenario: 0, international: false, serial: 0 }),
    );
  });
});

describe("international journey", () => {
  it("passes the export gateway and customs on the way to the destination", () => {
    const r = track(0, 83, true);
    expect(r.status).toBe("delivered");
    expect(codes(r)).toEqual([
      "SBX-DL",
      "SBX-OD",
      "SBX-AD",
      "SBX-CC",
      "SBX-AI",
      "SBX-EX",
      "SBX-AG",
      "SBX-DO",
      "SBX-PU",
      "SBX-LC",
    ]);
    const where = Object.fromEntries(r.events.map((e) => [e.code, e.location]));
    expect(where).toMatchObject({
      "SBX-AG": "Louisville, KY, US",
      "SBX-AI": "Coventry, GB",
      "SBX-DL": "London, GB",
      "SBX-LC": "New York, NY, US",
    });
    // London local time (GMT in March): 15:00Z + 83 min = 16:23.
    expect(r.events[0]).toMatchObject({ time: "16:23", date: "2024-03-04" });
  });
});

describe("scenarios", () => {
  it("1 stays pending", () => {
    const r = track(1, 10_000);
    expect(r.status).toBe("pending");
    expect(codes(r)).toEqual(["SBX-LC"]);
  });

  it("2 stops in transit at the sort hub", () => {
    expect(track(2, 19).status).toBe("in_transit");
    const r = track(2, 10_000);
    expect(r.status).toBe("in_transit");
    expect(codes(r)).toEqual(["SBX-AH", "SBX-DO", "SBX-PU", "SBX-LC"]);
    expect(r.estimated_delivery).toBe("2024-03-04");
  });

  it("3 stops out for delivery", () => {
    expect(track(3, 49).status).toBe("in_transit");
    const r = track(3, 10_000);
    expect(r.status).toBe("out_for_delivery");
    expect(codes(r)[0]).toBe("SBX-OD");
  });

  it("5 fails twice, then returns to sender", () => {
    expect(track(5, 53).status).toBe("out_for_delivery");
    const first = track(5, 54);
    expect(first.status).toBe("delivery_failed");
    expect(first.events[0]!.description).toBe("Delivery attempted, recipient not home. Notice left");
    expect(first.estimated_delivery).toBeNull();
    expect(track(5, 74).status).toBe("out_for_delivery");
    expect(track(5, 78).status).toBe("delivery_failed");
    expect(track(5, 80).status).toBe("return_to_sender");
    const back = track(5, 10_000);
    expect(back.status).toBe("return_to_sender");
    expect(back.events[0]).toMatchObject({
      code: "SBX-RD",
      description: "Returned to sender",
      location: "New York, NY, US",
    });
    expect(codes(back).filter((c) => c === "SBX-NH")).toHaveLength(2);
  });

  it("6 fails once and is then held at the post office", () => {
    expect(track(6, 54).status).toBe("delivery_failed");
    const r = track(6, 10_000);
    expect(r.status).toBe("ready_for_pickup");
    expect(r.events.slice(0, 2).map((e) => [e.status, e.description])).toEqual([
      ["ready_for_pickup", "Held at post office, ready for pickup"],
      ["delivery_failed", "Delivery attempted, recipient not home"],
    ]);
    expect(r.estimated_delivery).toBeNull();
  });

  it("7 is held by customs (international) or for address information (domestic)", () => {
    expect(track(7, 53, true).status).toBe("in_transit");
    const intl = track(7, 10_000, true);
    expect(intl.status).toBe("on_hold");
    expect(intl.events[0]).toMatchObject({
      code: "SBX-CH",
      location: "Coventry, GB",
      description: "Held by customs: documentation or duty payment required",
    });
    expect(intl.estimated_delivery).toBeNull();
    const domestic = track(7, 10_000);
    expect(domestic.status).toBe("on_hold");
    expect(domestic.events[0]).toMatchObject({ code: "SBX-HA", location: "Los Angeles, CA, US" });
  });

  it("8 is delayed by weather for a simulated day, then delivered", () => {
    const before = track(8, 21);
    expect(before.status).toBe("in_transit");
    expect(before.estimated_delivery).toBe("2024-03-04");
    const delayed = track(8, 22);
    expect(delayed.status).toBe("delivery_delayed");
    expect(delayed.events[0]).toMatchObject({ code: "SBX-WX", location: "Memphis, TN, US" });
    // The new estimate includes the extra simulated day: 55 + 24 minutes after purchase is still 2024-03-04.
    expect(delayed.estimated_delivery).toBe("2024-03-04");
    expect(track(8, 49).status).toBe("delivery_delayed");
    expect(track(8, 50).status).toBe("in_transit");
    expect(track(8, 78).status).toBe("out_for_delivery");
    expect(track(8, 79).status).toBe("delivered");
  });

  it("8 moves the estimated delivery date when the delay is reported (pace 1)", () => {
    const p = parts(8);
    const before = trackingAt("n", p, at(21 * 60), 1);
    const after = trackingAt("n", p, at(22 * 60), 1);
    // 15:00Z + 55 h = 2024-03-06 22:00Z → 14:00 in Los Angeles; + 24 h → 2024-03-07.
    expect(before.estimated_delivery).toBe("2024-03-06");
    expect(after.estimated_delivery).toBe("2024-03-07");
  });
});
