import { describe, expect, it, vi } from "vitest";
import { TRACKER_STATUSES } from "@/lib/carriers/types";
import { USPS_STATUS_BY_CATEGORY, USPS_STATUS_BY_CODE, uspsStatus } from "@/lib/carriers/usps/status";
import { USPS_EVENT_CODES, USPS_STATUS_CATEGORIES } from "@/lib/carriers/usps/status-codes";

describe("uspsStatus", () => {
  it.each([
    ["GX", "pending"],
    ["MA", "pending"],
    ["03", "picked_up"],
    ["SF", "in_transit"],
    ["TL", "in_transit"],
    ["OF", "out_for_delivery"],
    ["01", "delivered"],
    ["43", "delivered"],
    ["02", "delivery_failed"],
    ["55", "delivery_failed"],
    ["08", "delivery_delayed"],
    ["16", "ready_for_pickup"],
    ["09", "return_to_sender"],
    ["11", "lost"],
  ] as const)("%s → %s", (code, status) => {
    expect(uspsStatus(code)).toBe(status);
  });

  it("reads codes in any case and with spaces; without a known code, the category", () => {
    expect(uspsStatus(" of ")).toBe("out_for_delivery");
    expect(uspsStatus("ZZ", "Delivery Attempt")).toBe("delivery_failed");
    expect(uspsStatus(null, "  alert ")).toBe("on_hold");
    expect(uspsStatus("ZZ", "Something New")).toBeNull();
    expect(uspsStatus(undefined)).toBeNull();
  });

  it("finds no status through the prototype", () => {
    expect(uspsStatus("constructor", "__proto__")).toBeNull();
  });
});

const listed = USPS_EVENT_CODES.map(([code]) => code);

describe("the USPS status table against USPS's codes (status-codes.ts)", () => {
  it(`maps all ${listed.length} listed event codes, and no other`, () => {
    expect([...USPS_STATUS_BY_CODE.keys()].sort()).toEqual([...listed].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it(`maps all ${USPS_STATUS_CATEGORIES.length} status categories, and no other`, () => {
    expect([...USPS_STATUS_BY_CATEGORY.keys()].sort()).toEqual(
      USPS_STATUS_CATEGORIES.map((c) => c.toLowerCase()).sort(),
    );
  });

  it("counts as a label only made (a refund's used test) exactly the codes read as pending", async () => {
    // Loaded afresh, inside the test: the set is built while the module loads, and mutation testing sees only a test
    // that loads it reach the set (docs/testing.md, "Incremental runs").
    vi.resetModules();
    const { PRE_SHIPMENT_CODES } = await import("@/lib/carriers/usps/status");
    const pending = [...USPS_STATUS_BY_CODE].filter(([, status]) => status === "pending").map(([code]) => code);
    expect([...PRE_SHIPMENT_CODES].sort()).toEqual(pending.sort());
    expect(pending.length).toBeGreaterThan(0);
  });

  it("answers only our statuses", () => {
    for (const s of [...USPS_STATUS_BY_CODE.values(), ...USPS_STATUS_BY_CATEGORY.values()]) {
      expect(TRACKER_STATUSES).toContain(s);
    }
  });
});
