import { describe, expect, it } from "vitest";
import { LABEL_TYPES } from "@/lib/carriers/types";
import { upsImageFormat } from "@/lib/carriers/ups/label";
import { UPS_SERVICES } from "@/lib/carriers/ups/services";
import { buildShipRequest } from "@/lib/carriers/ups/shipping";
import { UPS_PACKAGING_CODES } from "@/lib/carriers/ups/wire";
import { readSpec } from "@/test/emulator/contract";
import { upsShipRequest } from "@/test/ups-context";

/**
 * UPS's code tables against UPS's own lists, read from the vendored Shipping.yaml and Rating.yaml (their "Valid
 * values" prose, as UPS publishes no enums): every code the adapter can send is in UPS's list, and every code of
 * UPS's list the adapter does not send has a written reason below. A code UPS adds or drops fails here.
 */

type Json = Record<string, unknown>;
const schema = (file: string, name: string) =>
  ((readSpec(file).components as Json).schemas as Json)[name] as {
    properties: Record<string, { description: string }>;
  };
const describedAs = (file: string, name: string, property: string) =>
  schema(file, name).properties[property]!.description;

/** The codes of a prose list: lines like "- 01 = Next Day Air", "01 = UPS Letter" or "- 2a - Small Express Box". */
function listedCodes(description: string): Set<string> {
  return new Set([...description.matchAll(/(?:^|\n)\s*-?\s*([A-Za-z0-9]{2})\s*[=-]\s*\S/g)].map((m) => m[1]!));
}

/** Checks both directions: ours ⊆ UPS's, and UPS's − ours = the reasons' keys. */
function expectCovered(ours: Iterable<string>, theirs: Set<string>, reasons: ReadonlyMap<string, string>) {
  const sent = new Set(ours);
  expect(
    [...sent].filter((c) => !theirs.has(c)),
    "codes we send that UPS does not list",
  ).toEqual([]);
  const unsupported = [...theirs].filter((c) => !sent.has(c)).sort();
  expect(unsupported, "UPS's codes we do not send, each with a reason").toEqual([...reasons.keys()].sort());
  for (const [code, why] of reasons) expect(why.length, `reason for ${code}`).toBeGreaterThan(10);
}

const SERVICES_NOT_OFFERED = new Map([
  ["M2", "Mail Innovations (First Class Mail) needs a Mail Innovations account and USPS handoff fields"],
  ["M3", "Mail Innovations (Priority Mail) needs a Mail Innovations account and USPS handoff fields"],
  ["M4", "Mail Innovations (Expedited) needs a Mail Innovations account and USPS handoff fields"],
  ["M5", "Mail Innovations (Priority) needs a Mail Innovations account and USPS handoff fields"],
  ["M6", "Mail Innovations (Economy) needs a Mail Innovations account and USPS handoff fields"],
  ["M7", "Mail Innovations Returns is a return service; the adapter sells outbound labels only"],
  ["75", "UPS Heavy Goods is freight-priced and needs freight fields the adapter does not send"],
  ["82", "UPS Today services are Polish domestic same-day courier products with their own contracts"],
  ["83", "UPS Today services are Polish domestic same-day courier products with their own contracts"],
  ["84", "UPS Today services are Polish domestic same-day courier products with their own contracts"],
  ["85", "UPS Today services are Polish domestic same-day courier products with their own contracts"],
  ["86", "UPS Today services are Polish domestic same-day courier products with their own contracts"],
  ["C6", "Roadie XD is a separate same-day delivery network booked with its own time windows"],
  ["C7", "Roadie XD is a separate same-day delivery network booked with its own time windows"],
  ["C8", "Roadie XD is a separate same-day delivery network booked with its own time windows"],
  ["T0", "Master is UPS's LTL freight master record, not a small-package service"],
  ["T1", "LTL is less-than-truckload freight, which needs the freight API"],
]);

const PACKAGING_NOT_SENT = new Map([
  ["56", "Flats: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["57", "Parcels: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["58", "BPM: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["59", "First Class: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["60", "Priority: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["61", "Machineables: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["62", "Irregulars: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["63", "Parcel Post: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["64", "BPM Parcel: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["65", "Media Mail: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["66", "BPM Flat: a Mail Innovations package type (no Mail Innovations services offered)"],
  ["67", "Standard Flat: a Mail Innovations package type (no Mail Innovations services offered)"],
]);

describe("UPS code tables against UPS's own lists", () => {
  it("services: each one we declare is in Shipping.yaml's Service.Code list", () => {
    const listed = listedCodes(describedAs("ups/Shipping.yaml", "Shipment_Service", "Code"));
    expect(listed.size).toBeGreaterThan(20);
    expectCovered(
      UPS_SERVICES.map((s) => s.code),
      listed,
      SERVICES_NOT_OFFERED,
    );
  });

  it("packaging: each code we send is in Shipping.yaml's Packaging and Rating.yaml's PackagingType lists", () => {
    const shipping = listedCodes(describedAs("ups/Shipping.yaml", "Package_Packaging", "Code"));
    expectCovered(UPS_PACKAGING_CODES, shipping, PACKAGING_NOT_SENT);
    const rating = listedCodes(describedAs("ups/Rating.yaml", "Package_PackagingType", "Code"));
    // Rating lists no Mail Innovations types, and "00 - UNKNOWN", which a request that knows its box never sends.
    expectCovered(UPS_PACKAGING_CODES, rating, new Map([["00", "UNKNOWN: we always know the box (02 by default)"]]));
  });

  it("label formats: we ask for GIF and ZPL, of the formats UPS names for shipments without return service", () => {
    const prose = describedAs("ups/Shipping.yaml", "LabelSpecification_LabelImageFormat", "Code");
    const listed = /without return service the valid value is ([A-Za-z, ]+?)\./.exec(prose)?.[1];
    expect(listed, "Shipping.yaml's sentence listing the formats").toBeDefined();
    const formats = new Set(listed!.split(/,\s*|\s+and\s+/).map((f) => f.trim()));
    expectCovered(
      LABEL_TYPES.map(upsImageFormat),
      formats,
      new Map([
        ["EPL", "EPL2 printers: our label types are PDF, PNG and ZPL; none is drawn from EPL"],
        ["SPL", "SPL (Datamax) printers: our label types are PDF, PNG and ZPL; none is drawn from SPL"],
      ]),
    );
  });

  it("stock sizes: each Height and Width we send is one UPS lists", () => {
    const size = schema("ups/Shipping.yaml", "LabelSpecification_LabelStockSize").properties;
    const heights = new Set(/Only valid values are (\d+) or (\d+)/.exec(size.Height!.description)!.slice(1));
    const widths = new Set(/Valid value is (\d+)/.exec(size.Width!.description)!.slice(1));
    expect(heights).toEqual(new Set(["6", "8"]));
    const sent = LABEL_TYPES.map(
      (label_type) =>
        buildShipRequest(upsShipRequest({ label_type }), {
          accountNumber: "A1B2C3",
          negotiatedRates: true,
          shipDate: "2026-11-27",
        }).body.ShipmentRequest.LabelSpecification!.LabelStockSize,
    );
    expectCovered(
      sent.map((s) => s!.Width),
      widths,
      new Map(),
    );
    expectCovered(
      sent.map((s) => s!.Height),
      heights,
      new Map([["8", '4×8 stock: UPS still draws a 4×6 image on it ("will only scale up to 4 X 6"); not offered yet']]),
    );
  });
});
