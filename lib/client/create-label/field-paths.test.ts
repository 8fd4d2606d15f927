import { describe, expect, it } from "vitest";
import { formFieldFor, placeProblems } from "./field-paths";

describe("formFieldFor", () => {
  it("maps the API's field paths onto the form's inputs", () => {
    expect(formFieldFor("recipient.postal_code")).toBe("recipient.postal_code");
    expect(formFieldFor("shipper.address_line1")).toBe("shipper.address_line1");
    expect(formFieldFor("parcels[0].weight")).toBe("parcels.0.weight");
    expect(formFieldFor("parcels[0].dimension_unit")).toBe("parcels.0.dimension_unit");
    expect(formFieldFor("label_type")).toBe("label_type");
    expect(formFieldFor("reference")).toBe("reference");
  });

  it("has no field for paths the form does not show", () => {
    for (const path of [
      null,
      undefined,
      "",
      "carrier_ids[0]",
      "services[0]",
      "selected_rate_id",
      "options.declared_value",
      "shipper",
      "parcels",
      "parcels[0]",
      "parcels[1].weight",
      "shipper.federal_tax_id",
      "shipper.validation.x",
      "recipient.postal_code.extra",
    ]) {
      expect(formFieldFor(path)).toBeNull();
    }
  });
});

describe("placeProblems", () => {
  it("puts each field's first problem under it, in the page's order, and the rest above the form", () => {
    const placed = placeProblems([
      { field: "parcels[0].weight", message: "must be greater than 0" },
      { field: "carrier_ids[0]", message: "matches no connection" },
      { field: "recipient.postal_code", message: "must not be empty" },
      { field: "recipient.postal_code", message: "second problem, not shown" },
      { field: "shipper.country_code", message: "must be a two-letter country code" },
      { field: null, message: "something about the whole request" },
    ]);
    expect(placed.fields).toEqual([
      { field: "shipper.country_code", message: "must be a two-letter country code" },
      { field: "recipient.postal_code", message: "must not be empty" },
      { field: "parcels.0.weight", message: "must be greater than 0" },
    ]);
    expect(placed.other).toEqual([
      { field: "carrier_ids[0]", message: "matches no connection" },
      { field: null, message: "something about the whole request" },
    ]);
  });

  it("takes carrier message details as well as error envelopes (field optional)", () => {
    const placed = placeProblems([{ message: "no field at all" }]);
    expect(placed).toEqual({ fields: [], other: [{ field: null, message: "no field at all" }] });
  });
});

describe("customs field paths", () => {
  it("maps the customs section's paths, items by their row", () => {
    expect(formFieldFor("customs.incoterm")).toBe("customs.incoterm");
    expect(formFieldFor("customs.duty.account_number")).toBe("customs.duty.account_number");
    expect(formFieldFor("customs.commodities[0].hs_code")).toBe("customs.commodities.0.hs_code");
    expect(formFieldFor("customs.commodities[12].origin_country")).toBe("customs.commodities.12.origin_country");
    expect(formFieldFor("customs.commodities")).toBe("customs.commodities");
    for (const path of [
      "customs",
      "customs.aes",
      "customs.duty.currency",
      "customs.commodities[0]",
      "customs.commodities[0].title",
      "customs.commodities[100].sku",
      "customs.commodities[01].sku",
    ]) {
      expect(formFieldFor(path)).toBeNull();
    }
  });

  it("orders customs problems as the page does: section fields, items row by row, the list, the signer", () => {
    const placed = placeProblems([
      { field: "customs.signer", message: "is required when certify is true" },
      { field: "customs.commodities[1].description", message: "must not be empty" },
      { field: "customs.commodities", message: "must all be valued in one currency" },
      { field: "customs.commodities[0].origin_country", message: "must be a two-letter country code" },
      { field: "customs.commodities[0].quantity", message: "must be at least 1" },
      { field: "customs.incoterm", message: "must be one of: DAP" },
      { field: "reference", message: "must be at most 100 characters" },
    ]);
    expect(placed.fields.map((f) => f.field)).toEqual([
      "reference",
      "customs.incoterm",
      "customs.commodities.0.quantity",
      "customs.commodities.0.origin_country",
      "customs.commodities.1.description",
      "customs.commodities",
      "customs.signer",
    ]);
  });
});
