import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it } from "vitest";
import { placeProblems } from "./field-paths";
import { defaultValues } from "./form-defaults";
import { CreateLabelForm, type CreateLabelValues, buyProblems, formParseOptions, shipmentRequest } from "./form-schema";
import { ratesRequest, ratingKey } from "./form-values";
import { numberFromText } from "./number-text";

function filled(): CreateLabelValues {
  const values = defaultValues({ shipFrom: null });
  values.shipper = { ...values.shipper, person_name: "Ada", address_line1: "1 Main St", city: "Springfield" };
  values.shipper.state_code = "il";
  values.shipper.postal_code = "62701";
  values.recipient = { ...values.recipient, person_name: "Bo", address_line1: "2 Oak Ave", city: "Portland" };
  values.recipient.state_code = "OR";
  values.recipient.postal_code = " 97201 ";
  values.parcels[0] = { ...values.parcels[0]!, weight: "2,5", length: "12", width: "10", height: "8" };
  return values;
}

const parse = (values: unknown) => CreateLabelForm.safeParse(values, formParseOptions);

/** The problems as the API would list them: `parcels[0].weight`. */
function problems(values: unknown) {
  const parsed = parse(values);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => ({
    field: i.path
      .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
      .join("")
      .replace(/^\./, ""),
    message: i.message,
  }));
}

describe("the create-label form schema", () => {
  it("turns the inputs into the API's request: trimmed, upper-cased, numbers, units only with dimensions", () => {
    const parsed = parse(filled());
    expect(parsed.success).toBe(true);
    const out = parsed.data!;
    expect(out.shipper.state_code).toBe("IL");
    expect(out.recipient.postal_code).toBe("97201");
    expect(out.recipient.email).toBeNull();
    expect(out.parcels[0]).toMatchObject({ weight: 2.5, weight_unit: "LB", length: 12, dimension_unit: "IN" });

    const values = filled();
    values.parcels[0] = { ...values.parcels[0]!, length: "", width: "", height: "" };
    expect(parse(values).data!.parcels[0]).toMatchObject({ length: null, width: null, dimension_unit: null });
  });

  it("needs only what rating needs: country, postal code and weight", () => {
    const values = defaultValues({ shipFrom: null });
    values.shipper.postal_code = "62701";
    values.recipient.postal_code = "97201";
    values.parcels[0]!.weight = "1";
    expect(parse(values).success).toBe(true);
  });

  it("says what is wrong in the API's words, on the API's paths", () => {
    const values = filled();
    values.recipient.postal_code = "9720";
    values.shipper.postal_code = "";
    values.parcels[0] = { ...values.parcels[0]!, weight: "", height: "" };
    values.recipient.email = "not an email";
    expect(problems(values)).toEqual(
      expect.arrayContaining([
        { field: "shipper.postal_code", message: "must not be empty" },
        { field: "recipient.postal_code", message: "must look like 94105 or 94105-1234" },
        { field: "recipient.email", message: "must be an email address" },
        { field: "parcels[0].weight", message: "is required" },
        { field: "parcels[0].height", message: "is required when any dimension is given" },
      ]),
    );
  });

  it("refuses zero, negative and non-numbers as weights", () => {
    for (const [weight, message] of [
      ["0", "must be greater than 0"],
      ["-1", "must be greater than 0"],
      ["two", "must be a number"],
      ["100001", "must be at most 100000"],
    ]) {
      const values = filled();
      values.parcels[0]!.weight = weight!;
      expect(problems(values)).toEqual([{ field: "parcels[0].weight", message }]);
    }
  });

  it("gives react-hook-form nested errors through @hookform/resolvers/zod", async () => {
    const values = filled();
    values.recipient.postal_code = "nope";
    const resolver = zodResolver(CreateLabelForm, formParseOptions);
    const result = await resolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(result.errors.recipient?.postal_code?.message).toMatch(/^must look like/);
  });
});

describe("numberFromText", () => {
  it("reads decimal points and commas, and marks anything else as not a number", () => {
    expect(numberFromText(" 2.5 ")).toBe(2.5);
    expect(numberFromText("2,5")).toBe(2.5);
    expect(numberFromText(".5")).toBe(0.5);
    expect(numberFromText("")).toBeNull();
    expect(numberFromText("1e3")).toBeNaN();
    expect(numberFromText("2 lb")).toBeNaN();
  });
});

describe("buyProblems", () => {
  it("asks for the street, city and state a label needs, on the fields the API would name", () => {
    const values = filled();
    values.recipient.address_line1 = "";
    values.recipient.city = "";
    values.recipient.state_code = "";
    const out = parse(values).data!;
    expect(placeProblems(buyProblems(out)).fields).toEqual([
      { field: "recipient.address_line1", message: "is required to buy a label" },
      { field: "recipient.city", message: "is required to buy a label" },
      { field: "recipient.state_code", message: "is required for US addresses" },
    ]);
  });

  it("asks for both phone numbers when the parcel crosses a border", () => {
    const values = filled();
    values.recipient = { ...values.recipient, country_code: "DE", state_code: "", postal_code: "10115" };
    values.recipient.phone_number = "+49 30 1234567";
    const out = parse(values).data!;
    // (US to DE also needs a customs declaration: customs-form.test.ts.)
    expect(buyProblems(out).filter((p) => p.field?.endsWith(".phone_number"))).toEqual([
      { field: "shipper.phone_number", message: "is required when shipping to another country" },
    ]);
  });

  it("finds nothing missing in a whole domestic address", () => {
    expect(buyProblems(parse(filled()).data!)).toEqual([]);
  });
});

describe("requests", () => {
  it("rates every connection and buys only the chosen connection and service", () => {
    const out = parse(filled()).data!;
    expect(ratesRequest(out)).not.toHaveProperty("carrier_ids");
    const body = shipmentRequest(out, { carrier_ref: "car_1", service: "SBX_GROUND" });
    expect(body).toMatchObject({
      label_type: "PDF",
      carrier_ids: ["car_1"],
      services: ["SBX_GROUND"],
      reference: null,
      // Shown on the form already: buying over an objection is recorded, not refused.
      validate: false,
    });
  });

  it("makes rates stale when an address or parcel changes, not contact details, the reference or format", () => {
    const values = filled();
    const before = ratingKey(values);
    expect(ratingKey({ ...values })).toBe(before);
    expect(ratingKey({ ...values, recipient: { ...values.recipient, residential: true } })).not.toBe(before);
    const other = { ...values, reference: "PO-1", label_type: "ZPL" as const };
    expect(ratingKey(other)).toBe(before);
    const contact = {
      ...values.recipient,
      person_name: "Cy",
      phone_number: "+1 503 555 0100",
      email: "cy@example.com",
    };
    expect(ratingKey({ ...values, recipient: contact })).toBe(before);
    expect(ratingKey({ ...values, shipper: { ...values.shipper, address_line2: "Suite 2" } })).not.toBe(before);
    expect(ratingKey({ ...values, parcels: [{ ...values.parcels[0]!, weight: "3" }] })).not.toBe(before);
  });

  it("prefills the ship-from the server passes, and ships to the same country", () => {
    const values = defaultValues({ shipFrom: { country_code: "CA", city: "Ottawa", person_name: null } });
    expect(values.shipper).toMatchObject({ country_code: "CA", city: "Ottawa", person_name: "" });
    expect(values.recipient.country_code).toBe("CA");
  });
});
