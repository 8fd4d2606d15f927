import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DHL_STATUS_BY_CODE, dhlStatus } from "@/lib/carriers/dhl_express/status";
import { DHL_STATUS_CODES } from "@/lib/carriers/dhl_express/status-codes";
import type { TrackerStatus } from "@/lib/carriers/types";

// DHL's express event codes (status-codes.ts), code by code where the status is not plain movement.
const TABLE: [string, TrackerStatus][] = [
  ["104", "pending"],
  ["SA", "picked_up"],
  ["PU", "picked_up"],
  ["WC", "out_for_delivery"],
  ["OK", "delivered"],
  ["DD", "delivered"],
  ["PD", "delivered"],
  ["101", "delivered"],
  ["NH", "delivery_failed"],
  ["CA", "delivery_failed"],
  ["BA", "delivery_failed"],
  ["RD", "delivery_failed"],
  ["MD", "delivery_failed"],
  ["ND", "delivery_failed"],
  ["CM", "delivery_failed"],
  ["103", "delivery_failed"],
  ["OH", "on_hold"],
  ["HP", "on_hold"],
  ["CD", "on_hold"],
  ["UD", "on_hold"],
  ["SS", "on_hold"],
  ["CS", "on_hold"],
  ["MS", "delivery_delayed"],
  ["MC", "delivery_delayed"],
  ["CC", "ready_for_pickup"],
  ["RT", "return_to_sender"],
  ["DS", "lost"],
  // Everything else is movement through DHL's network and customs.
  ["AF", "in_transit"],
  ["PL", "in_transit"],
  ["DF", "in_transit"],
  ["AR", "in_transit"],
  ["RR", "in_transit"],
  ["CR", "in_transit"],
  ["TP", "in_transit"],
];

describe("dhlStatus", () => {
  it.each(TABLE)("%s → %s", (code, status) => {
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
