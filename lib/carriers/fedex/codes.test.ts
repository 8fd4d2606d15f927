import { describe, expect, it } from "vitest";
import { LABEL_TYPES } from "@/lib/carriers/types";
import { fedexConfigSchema } from "@/lib/carriers/fedex/config";
import { FEDEX_SERVICES } from "@/lib/carriers/fedex/services";
import { buildShipRequest, type ShipSettings } from "@/lib/carriers/fedex/ship";
import { readSpec } from "@/test/emulator/contract";
import { fedexDomesticShip } from "@/test/fedex-context";

/**
 * FedEx's code tables against FedEx's own lists in the vendored ship-api.json: every image type and label stock the
 * adapter can send is in FedEx's enum, and every value of the enum the adapter does not send has a written reason
 * below. FedEx publishes service and package types on a page outside the spec, so for those the test holds the
 * spec to saying so: should a new version of the file list them, it fails here and the table gets checked.
 */

type Json = Record<string, unknown>;
type Property = { enum?: string[]; description?: string; example?: string };
const property = (file: string, schema: string, name: string) =>
  (((readSpec(file).components as Json).schemas as Json)[schema] as { properties: Record<string, Property> })
    .properties[name]!;

function expectCovered(ours: Iterable<string>, theirs: readonly string[], reasons: ReadonlyMap<string, string>) {
  const sent = new Set(ours);
  expect(
    [...sent].filter((c) => !theirs.includes(c)),
    "codes we send that FedEx does not list",
  ).toEqual([]);
  const unsupported = theirs.filter((c) => !sent.has(c)).sort();
  expect(unsupported, "FedEx's codes we do not send, each with a reason").toEqual([...reasons.keys()].sort());
  for (const [code, why] of reasons) expect(why.length, `reason for ${code}`).toBeGreaterThan(10);
}

const STOCKS = fedexConfigSchema.shape.label_stock.unwrap().options;

/** The label specification of every label type on every stock a connection can choose. */
const labelSpecifications = () =>
  LABEL_TYPES.flatMap((label_type) =>
    STOCKS.map((labelStock) => {
      const settings: ShipSettings = {
        accountNumber: "123456789",
        pickupType: "DROPOFF_AT_FEDEX_LOCATION",
        labelStock,
        shipDate: "2026-11-27",
        smartPostHubId: null,
      };
      return buildShipRequest(fedexDomesticShip({ label_type }), settings).body.requestedShipment.labelSpecification;
    }),
  );

const DOC_TAB = "a doc-tab stock carries a second, tear-off part FedEx fills with shipment data; none is asked for";

const STOCKS_NOT_SENT = new Map([
  ["PAPER_4X9", "4×9 paper: no label size of ours is 4×9"],
  ["PAPER_7X475", "7×4.75 paper: no label size of ours is that shape"],
  ["PAPER_85X11_BOTTOM_HALF_LABEL", "half a letter sheet: the letter size is the whole sheet (PAPER_LETTER)"],
  ["PAPER_85X11_TOP_HALF_LABEL", "half a letter sheet: the letter size is the whole sheet (PAPER_LETTER)"],
  ["STOCK_4X675_LEADING_DOC_TAB", DOC_TAB],
  ["STOCK_4X675_TRAILING_DOC_TAB", DOC_TAB],
  ["STOCK_4X9_LEADING_DOC_TAB", DOC_TAB],
  ["STOCK_4X9_TRAILING_DOC_TAB", DOC_TAB],
  ["STOCK_4X85_TRAILING_DOC_TAB", DOC_TAB],
  ["STOCK_4X105_TRAILING_DOC_TAB", DOC_TAB],
  ["STOCK_4X9", "4×9 thermal stock: no label size of ours is 4×9"],
]);

describe("FedEx code tables against FedEx's own lists", () => {
  it("image types: PDF, PNG and ZPLII are FedEx's; EPL2 has a reason", () => {
    const listed = property("fedex/ship-api.json", "LabelSpecification", "imageType").enum!;
    expectCovered(
      labelSpecifications().map((s) => s.imageType),
      listed,
      new Map([["EPL2", "EPL2 printers: our label types are PDF, PNG and ZPL; none is drawn from EPL2"]]),
    );
  });

  it("label stocks: every stock a connection's label_stock sends is in labelStockType's enum", () => {
    const listed = property("fedex/ship-api.json", "LabelSpecification", "labelStockType").enum!;
    expectCovered(
      labelSpecifications().map((s) => s.labelStockType),
      listed,
      STOCKS_NOT_SENT,
    );
  });

  it("services and packaging: FedEx lists them outside ship-api.json and rate-api.json, as the files say", () => {
    for (const file of ["fedex/ship-api.json", "fedex/rate-api.json"]) {
      const schemas = ((readSpec(file).components as Json).schemas as Json) ?? {};
      const fields = Object.values(schemas).flatMap((s) =>
        Object.entries((s as { properties?: Record<string, Property> }).properties ?? {}).filter(
          ([name]) => name === "serviceType" || name === "packagingType",
        ),
      );
      expect(fields.length, file).toBeGreaterThan(0);
      // No enum anywhere: the field's description links to FedEx's "servicetypes" / "packagetypes" pages.
      for (const [, p] of fields) expect(p.enum, `${file}: a list of values now`).toBeUndefined();
      expect(JSON.stringify(fields)).toMatch(/servicetypes/);
      expect(JSON.stringify(fields)).toMatch(/packagetypes/);
    }
    // What we send is FedEx's words all the same: the package type is FedEx's own example, and the service codes
    // are upper-case words as FedEx's examples (PRIORITY_OVERNIGHT, GROUND_HOME_DELIVERY).
    expect(
      buildShipRequest(fedexDomesticShip(), {
        accountNumber: "123456789",
        pickupType: "DROPOFF_AT_FEDEX_LOCATION",
        labelStock: "4x6",
        shipDate: "2026-11-27",
        smartPostHubId: null,
      }).body.requestedShipment.packagingType,
    ).toBe(property("fedex/ship-api.json", "RequestedShipment_1", "packagingType").example);
    for (const s of FEDEX_SERVICES) expect(s.code).toMatch(/^[A-Z0-9]+(_[A-Z0-9]+)*$/);
  });
});
