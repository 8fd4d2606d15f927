import { describe, expect, it } from "vitest";
import type { StoredTracker } from "@/lib/schemas/tracker";
import { presentPublicTracker, publicPlace, publicText } from "./present-public-tracker";

describe("publicPlace", () => {
  it("keeps city, state and country and drops postal codes", () => {
    expect(publicPlace("Austin, TX, 78701, US")).toBe("Austin, TX, US");
    expect(publicPlace("London, SW1A 1AA, GB")).toBe("London, GB");
    expect(publicPlace("Chicago, IL, US")).toBe("Chicago, IL, US");
    expect(publicPlace("")).toBe("");
  });

  it("drops a street, with or without its number", () => {
    expect(publicPlace("12 Elm St, Austin, TX, 78701, US")).toBe("Austin, TX, US");
    expect(publicPlace("Elm Street, Austin, TX, US")).toBe("Austin, TX, US");
    expect(publicPlace("bob@example.com, Austin")).toBe("Austin");
  });
});

describe("publicText", () => {
  it("hides emails and phone numbers, and keeps dates and long tracking numbers", () => {
    expect(publicText("Call +1 (512) 555-0100 or mail bob@example.com")).toBe("Call [hidden] or mail [hidden]");
    expect(publicText("Delayed until 2024-03-05")).toBe("Delayed until 2024-03-05");
    expect(publicText("Delivered, signed for")).toBe("Delivered, signed for");
    expect(publicText("Merged into SBX123456789012345678901")).toBe("Merged into SBX123456789012345678901");
  });
});

describe("presentPublicTracker", () => {
  it("answers no ids, references, shipment links or refresh details", () => {
    const stored: StoredTracker = {
      id: "trk_0123456789abcdef0123456789abcdef",
      shipment_id: "shp_0123456789abcdef0123456789abcdef",
      carrier_name: "sandbox",
      carrier_id: "my-account",
      tracking_number: "SBX1",
      status: "in_transit",
      delivered: false,
      test_mode: true,
      estimated_delivery: "2024-03-06",
      created_at: "2024-03-04 10:00:00.000000+00:00",
      updated_at: "2024-03-04 10:00:00.000000+00:00",
      refreshed_at: null,
      next_refresh_at: null,
      events: [
        {
          date: "2024-03-04",
          time: "10:00",
          description: "Departed",
          location: "1 Main St, Chicago, IL, 60607, US",
          code: "X",
          status: "in_transit",
        },
      ],
    };
    const view = presentPublicTracker(stored);
    expect(view).toEqual({
      carrier_name: "sandbox",
      tracking_number: "SBX1",
      status: "in_transit",
      delivered: false,
      estimated_delivery: "2024-03-06",
      test_mode: true,
      events: [
        {
          date: "2024-03-04",
          time: "10:00",
          description: "Departed",
          location: "Chicago, IL, US",
          status: "in_transit",
        },
      ],
    });
    expect(JSON.stringify(view)).not.toMatch(/trk_|shp_|my-account|Main St|60607/);
  });
});
