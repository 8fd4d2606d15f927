import { describe, expect, it } from "vitest";
import { fedexStatus } from "@/lib/carriers/fedex/status";
import type { TrackerStatus } from "@/lib/carriers/types";

// ../shared/carriers.md §2.4, code by code.
const TABLE: [string, TrackerStatus][] = [
  ["OC", "pending"],
  ["IN", "pending"],
  ["PU", "picked_up"],
  ["PX", "picked_up"],
  ["OD", "out_for_delivery"],
  ["ED", "out_for_delivery"],
  ["AD", "out_for_delivery"],
  ["DL", "delivered"],
  ["DE", "delivery_failed"],
  ["SE", "on_hold"],
  ["CD", "on_hold"],
  ["DY", "delivery_delayed"],
  ["DD", "delivery_delayed"],
  ["PD", "delivery_delayed"],
  ["HL", "ready_for_pickup"],
  ["HP", "ready_for_pickup"],
  ["RS", "return_to_sender"],
  ["CA", "cancelled"],
  // Everything else is movement through FedEx's network.
  ["AR", "in_transit"],
  ["AF", "in_transit"],
  ["DP", "in_transit"],
  ["IT", "in_transit"],
  ["IX", "in_transit"],
  ["AA", "in_transit"],
  ["PL", "in_transit"],
  ["PF", "in_transit"],
  ["LO", "in_transit"],
  ["SF", "in_transit"],
  ["FD", "in_transit"],
  ["TR", "in_transit"],
  ["CC", "in_transit"],
  ["CP", "in_transit"],
];

describe("fedexStatus", () => {
  it.each(TABLE)("%s → %s", (code, status) => {
    expect(fedexStatus(code)).toBe(status);
  });

  it("reads codes in any case and with spaces, and answers unknown without a code", () => {
    expect(fedexStatus(" dl ")).toBe("delivered");
    expect(fedexStatus("")).toBe("unknown");
    expect(fedexStatus(null)).toBe("unknown");
    expect(fedexStatus(undefined)).toBe("unknown");
  });

  it("finds no status through the prototype", () => {
    expect(fedexStatus("constructor")).toBe("in_transit");
    expect(fedexStatus("__proto__")).toBe("in_transit");
  });
});
