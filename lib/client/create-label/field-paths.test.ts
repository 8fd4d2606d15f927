import { describe, expect, it } from "vitest";
import { fieldErrorText, formFieldFor, placeProblems } from "./field-paths";

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

describe("fieldErrorText", () => {
  it("reads the API's message as a sentence about the field", () => {
    expect(fieldErrorText("Postal code", "must not be empty")).toBe("Postal code must not be empty.");
    expect(fieldErrorText("Weight", "is required.")).toBe("Weight is required.");
  });

  it("keeps a carrier's own sentence", () => {
    expect(fieldErrorText("Postal code", "Invalid postal code 00000 for US.")).toBe(
      "Invalid postal code 00000 for US.",
    );
  });
});
