import { describe, expect, it } from "vitest";
import { parseInput } from "@/lib/validation";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";
import { CustomsInput } from "./customs";

const commodity = {
  description: "Cotton T-shirt",
  quantity: 2,
  value_amount: 12.5,
  value_currency: "usd",
  weight: 0.2,
  weight_unit: "kg",
  hs_code: "6109.10.00",
  origin_country: "us",
};

describe("CustomsInput", () => {
  it("fills purplship's defaults and normalizes codes", () => {
    const parsed = CustomsInput.parse({ commodities: [commodity] });
    expect(parsed).toEqual({
      content_type: "merchandise",
      content_description: null,
      incoterm: "DAP",
      duty: { paid_by: "recipient", currency: "USD", account_number: null, declared_value: null },
      invoice: null,
      invoice_date: null,
      commercial_invoice: false,
      certify: false,
      signer: null,
      aes: null,
      eel_pfc: null,
      commodities: [
        {
          description: "Cotton T-shirt",
          quantity: 2,
          value_amount: 12.5,
          value_currency: "USD",
          weight: 0.2,
          weight_unit: "KG",
          hs_code: "61091000",
          origin_country: "US",
          sku: null,
          net_weight: null,
          gross_weight: null,
        },
      ],
      tax_registrations: { shipper: [], recipient: [] },
      non_delivery: null,
      options: {},
    });
  });

  it("takes each line's net and gross weight, gross never under net, and what to do if undeliverable", () => {
    const parsed = CustomsInput.parse({
      commodities: [{ ...commodity, net_weight: 0.4, gross_weight: 0.5 }],
      non_delivery: "ABANDON",
    });
    expect(parsed.commodities[0]).toMatchObject({ net_weight: 0.4, gross_weight: 0.5, weight_unit: "KG" });
    expect(parsed.non_delivery).toBe("abandon");
    const bad = parseInput(
      CustomsInput,
      { commodities: [{ ...commodity, net_weight: 0.5, gross_weight: 0.4 }], non_delivery: "burn" },
      "customs",
    );
    const fields = bad.ok ? [] : bad.problems.map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(["customs.commodities[0].gross_weight", "customs.non_delivery"]));
  });

  it("types each party's tax registrations: kind in any case, spaces out of the number, issuing country", () => {
    const parsed = CustomsInput.parse({
      commodities: [commodity],
      tax_registrations: {
        shipper: [{ type: "EORI", number: " DE 123 456 789 012 345 " }],
        recipient: [{ type: "ioss", number: "IM2760000742", issuing_country: "de" }],
      },
    });
    expect(parsed.tax_registrations).toEqual({
      shipper: [{ type: "eori", number: "DE123456789012345", issuing_country: null }],
      recipient: [{ type: "ioss", number: "IM2760000742", issuing_country: "DE" }],
    });
    const bad = parseInput(
      CustomsInput,
      {
        commodities: [commodity],
        tax_registrations: { shipper: [{ type: "ssn", number: "" }], importer: [] },
      },
      "customs",
    );
    const fields = bad.ok ? [] : bad.problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "customs.tax_registrations.shipper[0].type",
        "customs.tax_registrations.shipper[0].number",
        "customs.tax_registrations.importer",
      ]),
    );
  });

  it("has the sender pay duties under DDP unless told otherwise", () => {
    expect(CustomsInput.parse({ incoterm: "ddp", commodities: [commodity] }).duty.paid_by).toBe("sender");
    expect(
      CustomsInput.parse({ incoterm: "DDP", duty: { paid_by: "recipient" }, commodities: [commodity] }).duty.paid_by,
    ).toBe("recipient");
  });

  it("lets documents go without commodities, nothing else", () => {
    expect(CustomsInput.safeParse({ content_type: "documents" }).success).toBe(true);
    const goods = parseInput(CustomsInput, { content_type: "gift" }, "customs");
    expect(goods.ok).toBe(false);
    if (!goods.ok) expect(goods.problems).toContainEqual(expect.objectContaining({ field: "customs.commodities" }));
  });

  it("names each problem by its path", () => {
    const result = parseInput(
      CustomsInput,
      {
        content_type: "other",
        certify: true,
        duty: { paid_by: "third_party" },
        invoice_date: "23/11/2026",
        commodities: [
          { ...commodity, hs_code: "12", quantity: 0, origin_country: "USA" },
          { ...commodity, value_currency: "EUR" },
        ],
        colour: "red",
      },
      "customs",
    );
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "customs.content_description",
        "customs.signer",
        "customs.duty.account_number",
        "customs.invoice_date",
        "customs.commodities[0].hs_code",
        "customs.commodities[0].quantity",
        "customs.commodities[0].origin_country",
        "customs.commodities",
        "customs.colour",
      ]),
    );
  });

  it("accepts purplship's extra commodity keys without keeping them", () => {
    const parsed = CustomsInput.parse({ commodities: [{ ...commodity, title: "Tee", parent_id: "x", metadata: {} }] });
    expect(Object.keys(parsed.commodities[0]!)).not.toContain("title");
  });
});

describe("crossesCustomsBorder", () => {
  it.each([
    ["US", "US", false],
    ["US", "CA", true],
    ["us", "ca", true],
    ["DE", "FR", false],
    ["FR", "MC", false],
    ["DE", "CH", true],
    ["GB", "FR", true],
    ["US", "PR", false],
    ["PR", "CA", true],
  ])("%s → %s: %s", (from, to, crosses) => {
    expect(crossesCustomsBorder(from, to)).toBe(crosses);
  });
});
