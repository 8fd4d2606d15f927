import { describe, expect, it } from "vitest";
import { addresses, rates } from "./schema";
import { jsonRows } from "./json-rows";

/** Rows as Postgres writes them into JSON; the real-database comparison is test/load-shipments.test.ts. */
describe("jsonRows", () => {
  const read = jsonRows(rates);
  const json = {
    id: "rate_1",
    org_id: "org_1",
    shipment_id: "shp_1",
    position: 0,
    carrier_ref: "car_1",
    carrier_name: "sandbox",
    carrier_id: "sandbox",
    service: "sandbox_ground",
    currency: "USD",
    base_charge: 12.5,
    discount: 0,
    duties_and_taxes: 0,
    total_charge: 12.5,
    extra_charges: [{ name: "Fuel", amount: 1.25 }],
    transit_days: 3,
    meta: { rate_provider: "sandbox" },
    test_mode: true,
  };

  it("keys each column by its property, through the column's decoder", () => {
    const [row] = read([json]);
    expect(row).toEqual({
      id: "rate_1",
      orgId: "org_1",
      shipmentId: "shp_1",
      position: 0,
      carrierRef: "car_1",
      carrierName: "sandbox",
      carrierId: "sandbox",
      service: "sandbox_ground",
      currency: "USD",
      baseCharge: 12.5,
      discount: 0,
      dutiesAndTaxes: 0,
      totalCharge: 12.5,
      extraCharges: [{ name: "Fuel", amount: 1.25 }],
      transitDays: 3,
      meta: { rate_provider: "sandbox" },
      testMode: true,
    });
  });

  it("reads JSON text as well as parsed JSON; no rows and missing columns are empty and null", () => {
    expect(read(JSON.stringify([json]))).toEqual(read([json]));
    expect(read(null)).toEqual([]);
    expect(read("[]")).toEqual([]);
    const { meta: _, ...withoutMeta } = json;
    expect(read([{ ...withoutMeta, service: null }])[0]).toMatchObject({ meta: null, service: null });
  });

  it("turns Postgres's JSON timestamps (microseconds, an offset) into the Dates a select answers", () => {
    const [row] = jsonRows(addresses)([{ id: "adr_1", created_at: "2030-01-02T03:04:05.678912+00:00" }]);
    expect(row!.createdAt).toEqual(new Date("2030-01-02T03:04:05.678Z"));
    const [east] = jsonRows(addresses)([{ id: "adr_2", created_at: "2030-01-02T05:04:05.5+02:00" }]);
    expect(east!.createdAt).toEqual(new Date("2030-01-02T03:04:05.500Z"));
  });
});
