import { describe, expect, it, vi } from "vitest";
import { FEDEX_BEYOND_LIST, FEDEX_NOT_STATUS, FEDEX_STATUS_BY_CODE, fedexStatus } from "@/lib/carriers/fedex/status";
import { FEDEX_STATUS_CODES } from "@/lib/carriers/fedex/status-codes";
import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * The module loaded afresh, inside the test: its table is built while it loads, and mutation testing sees only a test
 * that loads it reach the table (docs/testing.md, "Incremental runs").
 */
async function fresh() {
  vi.resetModules();
  return import("@/lib/carriers/fedex/status");
}

// Every status code of FedEx's list (status-codes.ts: its Movement and Regulatory tables, FedEx's text beside each)
// once, in the list's order, then the one code from elsewhere (FEDEX_BEYOND_LIST).
const TABLE: [string, TrackerStatus][] = [
  ["AA", "in_transit"], // Movement: At Airport
  ["AC", "in_transit"], // Movement: At Canada Post facility
  ["AD", "out_for_delivery"], // Movement: At Delivery
  ["AF", "in_transit"], // Movement: At local FedEx Facility
  ["AO", "in_transit"], // Movement: Shipment arriving On-time
  ["AP", "pending"], // Movement: At Pickup
  ["AR", "in_transit"], // Movement: Arrived at FedEx location
  ["AX", "in_transit"], // Movement: At USPS facility
  ["CA", "cancelled"], // Movement: Shipment Cancelled
  ["CH", "in_transit"], // Movement: Location Changed
  ["DD", "delivery_delayed"], // Movement: Delivery Delay
  ["DE", "delivery_failed"], // Movement: Delivery Exception
  ["DL", "delivered"], // Movement: Delivered
  ["DP", "in_transit"], // Movement: Departed
  ["DR", "pending"], // Movement: Vehicle furnished but not used
  ["DS", "pending"], // Movement: Vehicle Dispatched
  ["DY", "delivery_delayed"], // Movement: Delay
  ["EA", "in_transit"], // Movement: Enroute to Airport; Regulatory: Export Approved
  ["ED", "out_for_delivery"], // Movement: Enroute to Delivery
  ["EO", "in_transit"], // Movement: Enroute to Origin Airport
  ["EP", "pending"], // Movement: Enroute to Pickup
  ["FD", "in_transit"], // Movement: At FedEx Destination
  ["HL", "ready_for_pickup"], // Movement: Hold at Location
  ["HP", "ready_for_pickup"], // Movement: Ready for Recipient Pickup
  ["IT", "in_transit"], // Movement: In Transit
  ["IX", "in_transit"], // Movement: In transit (see Details)
  ["LO", "in_transit"], // Movement: Left Origin
  ["OC", "pending"], // Movement: Order Created
  ["OD", "out_for_delivery"], // Movement: Out for Delivery
  ["OF", "in_transit"], // Movement: At FedEx origin facility
  ["OW", "in_transit"], // Movement: On the way
  ["OX", "in_transit"], // Movement: Shipment information sent to USPS
  ["PD", "delivery_delayed"], // Movement: Pickup Delay
  ["PF", "in_transit"], // Movement: Plane in Flight
  ["PL", "in_transit"], // Movement: Plane Landed
  ["PM", "in_transit"], // Movement: In Progress
  ["PU", "picked_up"], // Movement: Picked Up
  ["PX", "picked_up"], // Movement: Picked up (see Details)
  ["RR", "in_transit"], // Movement: CDO requested
  ["RM", "in_transit"], // Movement: CDO Modified
  ["RC", "in_transit"], // Movement: CDO Cancelled
  ["RS", "return_to_sender"], // Movement: Return to Shipper
  ["RP", "pending"], // Movement: Return label link emailed to return sender
  ["LP", "cancelled"], // Movement: Return label link cancelled by shipment originator
  ["RG", "pending"], // Movement: Return label link expiring soon
  ["RD", "cancelled"], // Movement: Return label link expired
  ["SE", "on_hold"], // Movement: Shipment Exception
  ["SF", "in_transit"], // Movement: At Sort Facility
  ["SP", "in_transit"], // Movement: Split Status; Regulatory: Split Status
  ["TR", "in_transit"], // Movement: Transfer
  ["CC", "in_transit"], // Regulatory: Cleared Customs
  ["CD", "on_hold"], // Regulatory: Clearance Delay
  ["CP", "in_transit"], // Regulatory: Clearance in Progress
  ["IN", "pending"], // derived code "Initiated": a label-only shipment
];

describe("fedexStatus", () => {
  it.each(TABLE)("%s → %s", async (code, status) => {
    const { fedexStatus } = await fresh();
    expect(fedexStatus(code)).toBe(status);
  });

  it("reads codes in any case and with spaces, and answers unknown without a code", () => {
    expect(fedexStatus(" dl ")).toBe("delivered");
    expect(fedexStatus("Ow")).toBe("in_transit");
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

  it("the table above is every code of FedEx's list, once, and those from elsewhere", async () => {
    const { FEDEX_BEYOND_LIST: beyond } = await fresh();
    expect(TABLE.map(([code]) => code)).toEqual([...fedexList, ...Object.keys(beyond)]);
    // Where a code from elsewhere comes from is written down, not just its name.
    for (const source of Object.values(beyond)) expect(source.length).toBeGreaterThan(20);
  });

  it(`maps all ${fedexList.length} of FedEx's status codes by name (${statusSections.join(", ")})`, () => {
    expect(fedexList.filter((c) => !ours.includes(c))).toEqual([]);
  });

  it("leaves FedEx's Possession table out: who holds the parcel, not its status", () => {
    expect(FEDEX_NOT_STATUS).toBe("Possession");
    expect(sections[FEDEX_NOT_STATUS]!.map(([code]) => code)).toEqual(["CA", "RC", "SH", "CU", "BR", "TP", "SP"]);
  });
});
