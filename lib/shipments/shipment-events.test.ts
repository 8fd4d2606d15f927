import { describe, expect, it } from "vitest";
import { transitionEventType } from "./shipment-events";

describe("transitionEventType", () => {
  it("names a purchase and a cancellation by their own events, every other move status_changed", () => {
    expect(transitionEventType("purchased")).toBe("shipment.purchased");
    expect(transitionEventType("cancelled")).toBe("shipment.cancelled");
    for (const to of [
      "in_transit",
      "out_for_delivery",
      "delivered",
      "needs_attention",
      "delivery_failed",
      "lost",
    ] as const) {
      expect(transitionEventType(to)).toBe("shipment.status_changed");
    }
  });
});
