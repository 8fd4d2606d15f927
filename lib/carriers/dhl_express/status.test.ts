import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { DHL_STATUS_BY_CODE, dhlStatus } from "@/lib/carriers/dhl_express/status";
import { DHL_STATUS_CODES } from "@/lib/carriers/dhl_express/status-codes";
import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * The module loaded afresh, inside the test: its table is built while it loads, and mutation testing sees only a test
 * that loads it reach the table (docs/testing.md, "Incremental runs").
 */
async function fresh() {
  vi.resetModules();
  return import("@/lib/carriers/dhl_express/status");
}

// Every code of DHL Express's list (status-codes.ts, DHL's text beside each), in the list's order.
const TABLE: [string, TrackerStatus][] = [
  ["101", "delivered"], // delivered (on shipment level)
  ["102", "in_transit"], // transit (on shipment level)
  ["103", "delivery_failed"], // failure (on shipment level)
  ["104", "pending"], // pre-transit (on shipment level)
  ["AD", "in_transit"], // Agreed delivery
  ["AF", "in_transit"], // Arrived facility
  ["AR", "in_transit"], // Arrival in delivery facility
  ["BA", "delivery_failed"], // Bad address
  ["BN", "in_transit"], // Customer broker notified
  ["BR", "in_transit"], // Broker release (no EDD)
  ["CA", "delivery_failed"], // Closed on arrival (no EDD)
  ["CC", "ready_for_pickup"], // Awaiting cnee collection (no EDD)
  ["CD", "on_hold"], // Controllable clearance delay
  ["CM", "delivery_failed"], // Customer moved
  ["CR", "in_transit"], // Clearance release
  ["CS", "on_hold"], // Closed shipment (no EDD)
  ["DD", "delivered"], // Delivered damaged (no EDD)
  ["DF", "in_transit"], // Depart facility
  ["DS", "lost"], // Destroyed / disposal (no EDD)
  ["FD", "in_transit"], // Forward destination (DD's expected)
  ["HP", "on_hold"], // Held for payment
  ["IC", "in_transit"], // In clearance processing
  ["MC", "delivery_delayed"], // Miscode
  ["MD", "delivery_failed"], // Missed delivery cycle
  ["MS", "delivery_delayed"], // Mis-sort
  ["ND", "delivery_failed"], // Not delivered
  ["NH", "delivery_failed"], // Not home (no EDD)
  ["OH", "on_hold"], // On hold
  ["OK", "delivered"], // Delivery (no EDD)
  ["PD", "delivered"], // Partial delivery (no EDD)
  ["PL", "in_transit"], // Processed at location
  ["PU", "picked_up"], // Shipment pick up
  ["RD", "delivery_failed"], // Refused delivery (no EDD)
  ["RR", "in_transit"], // Response received
  ["RT", "return_to_sender"], // Returned to consignor (no EDD)
  ["SA", "picked_up"], // Shipment acceptance
  ["SC", "in_transit"], // Service changed
  ["SS", "on_hold"], // Shipment stopped (no EDD)
  ["TP", "in_transit"], // Forwarded to 3rd party - no DD's (no EDD)
  ["TR", "in_transit"], // Record of transfer
  ["UD", "on_hold"], // Uncontrollable clearance delay
  ["WC", "out_for_delivery"], // With delivering courier
  ["PY", "in_transit"], // Payment (new since 4th June 2024)
  ["SM", "in_transit"], // Scheduled for movement (new since 4th June 2024)
];

describe("dhlStatus", () => {
  it.each(TABLE)("%s → %s", async (code, status) => {
    const { dhlStatus } = await fresh();
    expect(dhlStatus(code)).toBe(status);
  });

  it("reads codes in any case and with spaces, and answers unknown without a code", () => {
    expect(dhlStatus(" ok ")).toBe("delivered");
    expect(dhlStatus("")).toBe("unknown");
    expect(dhlStatus(null)).toBe("unknown");
    expect(dhlStatus(undefined)).toBe("unknown");
  });

  it("finds no status through the prototype; a code DHL adds later is movement", () => {
    expect(dhlStatus("constructor")).toBe("in_transit");
    expect(dhlStatus("__proto__")).toBe("in_transit");
    expect(dhlStatus("ZZ")).toBe("in_transit");
  });
});

/** The `express` rows of DHL's file as vendored (Windows-1252, `;`-separated: Service;Status;Description;Remark). */
function vendoredExpressCodes(): string[] {
  const text = new TextDecoder("windows-1252").decode(readFileSync("test/emulator/specs/dhl_express/status-codes.csv"));
  return text
    .split(/\r?\n/)
    .map((line) => line.split(";"))
    .filter((cells) => cells[0] === "express")
    .map((cells) => cells[1]!.trim());
}

const dhlList = Object.keys(DHL_STATUS_CODES);
const ours = Object.keys(DHL_STATUS_BY_CODE);

describe("the DHL status table against DHL's own list", () => {
  it("the table above is every code of DHL's list, once", () => {
    expect(TABLE.map(([code]) => code)).toEqual(Object.keys(DHL_STATUS_CODES));
  });

  it("status-codes.ts is the vendored file's express rows, every one", () => {
    expect(dhlList).toEqual(vendoredExpressCodes());
    expect(dhlList).toHaveLength(44);
  });

  it("maps no code DHL does not list", () => {
    expect(ours.filter((c) => !dhlList.includes(c))).toEqual([]);
  });

  it(`maps all ${dhlList.length} of DHL Express's event codes by name`, () => {
    expect(dhlList.filter((c) => !ours.includes(c))).toEqual([]);
  });
});
