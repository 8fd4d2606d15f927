import { describe, expect, it } from "vitest";
import { CustomsInput } from "@/lib/schemas/customs";
import { emptyCommodity, firstRowPrefill, needsCustoms, type CommodityValues } from "./customs-form";
import { placeProblems } from "./field-paths";
import { defaultValues } from "./form-defaults";
import { CreateLabelForm, buyProblems, formParseOptions, shipmentRequest, type CreateLabelValues } from "./form-schema";

const RATE = { carrier_ref: "car_1", service: "SBX_INTL" };

/** A whole label from Chicago to Toronto, its customs section as the defaults leave it. */
function toCanada(): CreateLabelValues {
  const values = defaultValues({ shipFrom: null, signer: "Olivia Owner" });
  values.shipper = {
    ...values.shipper,
    person_name: "Olivia Owner",
    address_line1: "500 Industrial Way",
    city: "Chicago",
    state_code: "IL",
    postal_code: "60607",
    phone_number: "+1 312 555 0100",
  };
  values.recipient = {
    ...values.recipient,
    country_code: "CA",
    person_name: "Chloé Client",
    address_line1: "100 Queen St W",
    city: "Toronto",
    state_code: "ON",
    postal_code: "M5H 2N2",
    phone_number: "+1 416 555 0100",
  };
  values.parcels[0] = { ...values.parcels[0]!, weight: "2.5" };
  return values;
}

const item = (more: Partial<CommodityValues> = {}): CommodityValues => ({
  ...emptyCommodity(),
  description: "Cotton T-shirt",
  quantity: "3",
  value_amount: "12,50",
  value_currency: "usd",
  weight: "0.4",
  weight_unit: "LB",
  hs_code: "6109.10",
  origin_country: "US",
  sku: "TS-BLK-M",
  ...more,
});

const output = (values: CreateLabelValues) => {
  const parsed = CreateLabelForm.safeParse(values, formParseOptions);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
};

describe("the customs section", () => {
  it("is needed only across a customs border", () => {
    expect(needsCustoms({ shipper: { country_code: "US" }, recipient: { country_code: "CA" } })).toBe(true);
    expect(needsCustoms({ shipper: { country_code: "US" }, recipient: { country_code: "US" } })).toBe(false);
    // One customs territory: the EU's members, Puerto Rico inside the United States'.
    expect(needsCustoms({ shipper: { country_code: "DE" }, recipient: { country_code: "FR" } })).toBe(false);
    expect(needsCustoms({ shipper: { country_code: "US" }, recipient: { country_code: "PR" } })).toBe(false);
    expect(needsCustoms({ shipper: { country_code: "US" }, recipient: { country_code: "" } })).toBe(false);
  });

  it("does not hold up rating, even blank", () => {
    const values = toCanada();
    expect(CreateLabelForm.safeParse(values, formParseOptions).success).toBe(true);
  });

  it("is neither checked nor sent for a parcel that stays inside one customs territory", () => {
    const values = toCanada();
    values.recipient = { ...values.recipient, country_code: "US", state_code: "TX", postal_code: "78701" };
    const out = output(values);
    expect(buyProblems(out)).toEqual([]);
    expect(shipmentRequest(out, RATE).customs).toBeNull();
  });

  it("asks for what a declaration needs, on the inputs the API's paths name", () => {
    const values = toCanada();
    values.customs.commodities = [emptyCommodity()];
    const placed = placeProblems(buyProblems(output(values)));
    expect(placed.other).toEqual([]);
    expect(placed.fields).toEqual([
      { field: "customs.commodities.0.description", message: "must not be empty" },
      { field: "customs.commodities.0.value_amount", message: "is required" },
      { field: "customs.commodities.0.value_currency", message: "is required" },
      { field: "customs.commodities.0.weight", message: "is required" },
      { field: "customs.commodities.0.origin_country", message: "is required" },
    ]);
  });

  it("says what is wrong with a typed item in the API's words", () => {
    const values = toCanada();
    values.customs.commodities = [item(), item({ quantity: "2.5", hs_code: "12", value_amount: "ten" })];
    expect(buyProblems(output(values))).toEqual([
      { field: "customs.commodities[1].quantity", message: "must be a whole number" },
      { field: "customs.commodities[1].value_amount", message: "must be a number" },
      { field: "customs.commodities[1].hs_code", message: "must be a Harmonized System code of 6 to 10 digits" },
    ]);
  });

  it("asks for the signer of a certified declaration and the account of a third party paying duties", () => {
    const values = toCanada();
    values.customs = {
      ...values.customs,
      certify: true,
      signer: " ",
      duty: { paid_by: "third_party", account_number: "" },
      commodities: [item()],
    };
    expect(buyProblems(output(values))).toEqual([
      { field: "customs.signer", message: "is required when certify is true" },
      { field: "customs.duty.account_number", message: "is required when a third party pays duties" },
    ]);
  });

  it("sends its item rows in the API's shape: numbers, upper-cased codes, HS code without dots", () => {
    const values = toCanada();
    values.customs = {
      ...values.customs,
      incoterm: "DDP",
      duty: { paid_by: "sender", account_number: "kept while hidden" },
      content_description: "kept while hidden",
      invoice: "INV-7",
      invoice_date: "2026-11-20",
      commercial_invoice: true,
      certify: true,
      commodities: [item(), item({ description: "Mug", quantity: "1", value_amount: "8", hs_code: "", sku: "" })],
    };
    const out = output(values);
    expect(buyProblems(out)).toEqual([]);
    const customs = shipmentRequest(out, RATE).customs;
    expect(customs).toEqual({
      content_type: "merchandise",
      content_description: null,
      incoterm: "DDP",
      duty: { paid_by: "sender", currency: "USD", account_number: null, declared_value: null },
      invoice: "INV-7",
      invoice_date: "2026-11-20",
      commercial_invoice: true,
      certify: true,
      signer: "Olivia Owner",
      aes: null,
      eel_pfc: null,
      tax_registrations: { shipper: [], recipient: [] },
      non_delivery: null,
      options: {},
      commodities: [
        {
          description: "Cotton T-shirt",
          quantity: 3,
          value_amount: 12.5,
          value_currency: "USD",
          weight: 0.4,
          weight_unit: "LB",
          hs_code: "610910",
          origin_country: "US",
          sku: "TS-BLK-M",
          net_weight: null,
          gross_weight: null,
        },
        {
          description: "Mug",
          quantity: 1,
          value_amount: 8,
          value_currency: "USD",
          weight: 0.4,
          weight_unit: "LB",
          hs_code: null,
          origin_country: "US",
          sku: null,
          net_weight: null,
          gross_weight: null,
        },
      ],
    });
    // What is sent is what the API reads back unchanged.
    expect(CustomsInput.parse(JSON.parse(JSON.stringify(customs)))).toEqual(customs);
  });

  it("sends the contents' words for 'other' and a third party's account", () => {
    const values = toCanada();
    values.customs = {
      ...values.customs,
      content_type: "other",
      content_description: "Spare parts",
      duty: { paid_by: "third_party", account_number: "ACC-1" },
      commodities: [item()],
    };
    const customs = shipmentRequest(output(values), RATE).customs!;
    expect(customs.content_description).toBe("Spare parts");
    expect(customs.duty).toMatchObject({ paid_by: "third_party", account_number: "ACC-1" });
  });

  it("may list no items when the parcel holds documents", () => {
    const values = toCanada();
    values.customs = { ...values.customs, content_type: "documents", commodities: [] };
    const out = output(values);
    expect(buyProblems(out)).toEqual([]);
    expect(shipmentRequest(out, RATE).customs).toMatchObject({ content_type: "documents", commodities: [] });
    values.customs.content_type = "gift";
    expect(placeProblems(buyProblems(output(values))).fields).toEqual([
      { field: "customs.commodities", message: "must list at least one item unless content_type is documents" },
    ]);
  });

  it("starts with the API's defaults and the signed-in person as signer", () => {
    expect(defaultValues({ shipFrom: null, signer: "Olivia Owner" }).customs).toMatchObject({
      content_type: "merchandise",
      incoterm: "DAP",
      duty: { paid_by: "recipient", account_number: "" },
      certify: false,
      signer: "Olivia Owner",
      commodities: [{ description: "", quantity: "1", value_currency: "", weight: "", origin_country: "" }],
    });
    expect(defaultValues({ shipFrom: null }).customs.signer).toBe("");
  });
});

describe("firstRowPrefill", () => {
  const source = { weight: "2.5", weight_unit: "KG" as const, currency: "USD" };

  it("fills a blank first row from the parcel's weight and the rates' currency", () => {
    expect(firstRowPrefill([emptyCommodity()], source, {})).toEqual({
      weight: "2.5",
      weight_unit: "KG",
      value_currency: "USD",
    });
  });

  it("invents nothing: no parcel weight or no rates leave the row blank", () => {
    expect(firstRowPrefill([emptyCommodity()], { weight: " ", weight_unit: "LB", currency: null }, {})).toEqual({});
  });

  it("follows the page while the row holds what it wrote, and stops once the clerk types their own", () => {
    const last = { weight: "2.5", weight_unit: "KG" as const, value_currency: "USD" };
    const row = { ...emptyCommodity(), ...last };
    expect(firstRowPrefill([row], { ...source, weight: "3" }, last)).toEqual({ weight: "3" });
    const typed = { ...row, weight: "0.5", value_currency: "CAD" };
    expect(firstRowPrefill([typed], { ...source, weight: "3", currency: "EUR" }, last)).toEqual({});
  });

  it("gives the parcel's weight to the first item only while it is the only one", () => {
    const rows = [emptyCommodity(), emptyCommodity()];
    expect(firstRowPrefill(rows, source, {})).toEqual({ value_currency: "USD" });
  });
});
