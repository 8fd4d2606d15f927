import { describe, expect, it } from "vitest";
import { FEDEX_BEYOND_LIST, FEDEX_NOT_STATUS, FEDEX_STATUS_BY_CODE, fedexStatus } from "@/lib/carriers/fedex/status";
import { FEDEX_STATUS_CODES } from "@/lib/carriers/fedex/status-codes";
import type { TrackerStatus } from "@/lib/carriers/types";

// FedEx's Tracking Status Codes (status-codes.ts), code by code where the status is not plain movement.
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
  ["AP", "pending"],
  ["EP", "pending"],
  ["DS", "pending"],
  ["DR", "pending"],
  ["RP", "pending"],
  ["RG", "pending"],
  ["LP", "cancelled"],
  ["RD", "cancelled"],
  // Everything else is movement through FedEx's network.
  ["Ow", "in_transit"],
  ["OX", "in_transit"],
  ["EA", "in_transit"],
  ["SP", "in_transit"],
  ["RR", "in_transit"],
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

const sections = FEDEX_STATUS_CODES as Record<string, readonly (readonly [string, string])[]>;
const statusSections = Object.keys(sections).filter((name) => name !== FEDEX_NOT_STATUS);
/** FedEx's status codes, in capitals, once each (SP is in two tables, EA names two things). */
const fedexList = [...new Set(statusSections.flatMap((name) => sections[name]!.map(([code]) => code.toUpperCase())))];
const ours = Object.keys(FEDEX_STATUS_BY_CODE);

describe("the FedEx status table against FedEx's own list (status-codes.ts)", () => {
  it("maps no code FedEx does not list, but for the ones said to come from elsewhere", () => {
    expect(ours.filter((c) => !fedexList.includes(c))).toEqual(Object.keys(FEDEX_BEYOND_LIST));
    expect(Object.keys(FEDEX_BEYOND_LIST).filter((c) => fedexList.includes(c))).toEqual([]);
  });

  it(`maps all ${fedexList.length} of FedEx's status codes by name (${statusSections.join(", ")})`, () => {
    expect(fedexList.filter((c) => !ours.includes(c))).toEqual([]);
  });

  it("leaves FedEx's Possession table out: who holds the parcel, not its status", () => {
    expect(FEDEX_NOT_STATUS).toBe("Possession");
    expect(sections[FEDEX_NOT_STATUS]!.map(([code]) => code)).toEqual(["CA", "RC", "SH", "CU", "BR", "TP", "SP"]);
  });
});
