import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/schemas/message";
import {
  breakdownText,
  chargeLines,
  deliveryText,
  messagesByCarrier,
  rateViews,
  ratesAnnouncement,
} from "./rates-view";
import { rate } from "./test-rates";

const ground = rate({ service: "SBX_GROUND", total_charge: 9.9, transit_days: 5 });
const twoDay = rate({
  service: "SBX_2DAY",
  service_name: "Sandbox 2-Day",
  total_charge: 15.2,
  transit_days: 2,
  estimated_delivery: "2025-06-05",
});
const overnight = rate({
  service: "SBX_OVERNIGHT",
  service_name: "Sandbox Overnight",
  total_charge: 31,
  transit_days: 1,
  estimated_delivery: "2025-06-04",
});

describe("rateViews", () => {
  it("sorts by price or by speed and marks the cheapest and the fastest", () => {
    const byPrice = rateViews([overnight, ground, twoDay], "price");
    expect(byPrice.map((v) => v.rate.service)).toEqual(["SBX_GROUND", "SBX_2DAY", "SBX_OVERNIGHT"]);
    expect(byPrice.find((v) => v.cheapest)?.rate).toBe(ground);
    expect(byPrice.find((v) => v.fastest)?.rate).toBe(overnight);
    expect(byPrice.filter((v) => v.cheapest || v.fastest)).toHaveLength(2);

    const bySpeed = rateViews([ground, twoDay, overnight], "speed");
    expect(bySpeed.map((v) => v.rate.service)).toEqual(["SBX_OVERNIGHT", "SBX_2DAY", "SBX_GROUND"]);
  });

  it("compares prices in cents and breaks ties by speed, and speed ties by price", () => {
    const a = rate({ service: "A", total_charge: 0.1 + 0.2, transit_days: 4 });
    const b = rate({ service: "B", total_charge: 0.3, transit_days: 3 });
    expect(rateViews([a, b], "price")[0]!.rate).toBe(b);
    const c = rate({ service: "C", total_charge: 5, transit_days: 3 });
    expect(rateViews([c, b], "speed").find((v) => v.fastest)?.rate).toBe(b);
  });

  it("calls nothing cheapest across currencies, and nothing fastest without a transit time", () => {
    const cad = rate({ service: "X", currency: "CAD", total_charge: 1, transit_days: 0 });
    const views = rateViews([ground, cad], "price");
    expect(views.some((v) => v.cheapest)).toBe(false);
    expect(views.find((v) => v.fastest)?.rate).toBe(ground);
    expect(rateViews([cad], "speed")[0]).toMatchObject({ cheapest: true, fastest: false });
  });
});

describe("formatting", () => {
  it("shows the carrier's delivery day as that day, whatever the viewer's time zone", () => {
    expect(deliveryText(twoDay)).toBe("Arrives Thu, Jun 5 · 2 days");
    expect(deliveryText(rate({ transit_days: 1, estimated_delivery: null }))).toBe("1 day");
    expect(deliveryText(rate({ transit_days: 0, estimated_delivery: null }))).toBeNull();
  });

  it("breaks the total into lines that add up to it", () => {
    const r = rate({
      base_charge: 20,
      extra_charges: [
        { name: "Fuel surcharge", amount: 1.7, currency: "USD" },
        { name: "Residential", amount: 3.95, currency: "USD" },
      ],
      discount: 1,
      duties_and_taxes: 2,
      total_charge: 26.65,
    });
    const lines = chargeLines(r);
    expect(lines.map((l) => l.label)).toEqual([
      "Base",
      "Fuel surcharge",
      "Residential",
      "Discount",
      "Duties and taxes",
    ]);
    expect(lines.reduce((sum, l) => sum + Math.round(l.amount * 100), 0)).toBe(2665);
    expect(breakdownText(r)).toBe(
      "Base $20.00 + Fuel surcharge $1.70 + Residential $3.95 − Discount $1.00 + Duties and taxes $2.00",
    );
  });
});

const message = (carrier_id: string, level: Message["level"], code: string): Message => ({
  carrier_name: "sandbox",
  carrier_id,
  code,
  message: `${code} happened`,
  level,
  details: {},
});

describe("messagesByCarrier", () => {
  it("groups messages per connection, errors first", () => {
    const groups = messagesByCarrier([
      message("east", "warning", "W1"),
      message("west", "error", "E1"),
      message("east", "error", "E2"),
    ]);
    expect(groups.map((g) => g.carrierId)).toEqual(["east", "west"]);
    expect(groups[0]!.messages.map((m) => m.code)).toEqual(["E2", "W1"]);
  });
});

describe("ratesAnnouncement", () => {
  it("says how many rates came and which are cheapest and fastest", () => {
    const views = rateViews([ground, twoDay, overnight], "price");
    expect(ratesAnnouncement(views, [message("west", "error", "E")])).toBe(
      "3 rates from 1 carrier. Cheapest: Sandbox Ground, $9.90. Fastest: Sandbox Overnight, Arrives Wed, Jun 4 · 1 day. 1 carrier error.",
    );
    expect(ratesAnnouncement([], [])).toBe("No rates.");
  });
});
