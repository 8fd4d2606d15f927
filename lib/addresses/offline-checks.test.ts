import { describe, expect, it } from "vitest";
import { checkAddress } from "./offline-checks";
import type { CheckedAddress } from "./types";

const austin: CheckedAddress = {
  person_name: "Ada Lovelace",
  company_name: null,
  address_line1: "1100 Congress Ave",
  address_line2: null,
  city: "Austin",
  postal_code: "78701",
  state_code: "TX",
  country_code: "US",
  phone_number: "+15125550100",
};
const codes = (a: CheckedAddress, o = {}) => checkAddress(a, o).messages.map((m) => `${m.field}:${m.code}`);

describe("checkAddress", () => {
  it("finds nothing wrong with a complete US address", () => {
    expect(checkAddress(austin)).toEqual({ messages: [], suggestions: [] });
  });

  it("catches a Chicago ZIP written for Austin, TX", () => {
    expect(codes({ ...austin, postal_code: "60607" })).toEqual(["postal_code:postal_code_state_mismatch"]);
    expect(codes({ ...austin, postal_code: "78701-1234" })).toEqual([]);
    // 733 is Austin's IRS prefix inside Oklahoma's range; 885 is El Paso.
    expect(codes({ ...austin, postal_code: "73301" })).toEqual([]);
    expect(codes({ ...austin, postal_code: "88510" })).toEqual([]);
    expect(codes({ ...austin, postal_code: "73101" })).toEqual(["postal_code:postal_code_state_mismatch"]);
  });

  it("knows the ZIPs USPS gives places outside their prefix's state: American Samoa's 96799, Alta WY's 83414", () => {
    const pago = { ...austin, city: "Pago Pago", phone_number: null };
    expect(codes({ ...pago, state_code: "AS", postal_code: "96799" })).toEqual([]);
    expect(codes({ ...pago, state_code: "HI", postal_code: "96799" })).toEqual([
      "postal_code:postal_code_state_mismatch",
    ]);
    expect(codes({ ...pago, state_code: "HI", postal_code: "96813" })).toEqual([]);
    expect(codes({ ...pago, state_code: "AS", postal_code: "96813" })).toEqual([
      "postal_code:postal_code_state_mismatch",
    ]);
    expect(codes({ ...austin, city: "Alta", state_code: "WY", postal_code: "83414", phone_number: null })).toEqual([]);
  });

  it("checks the postal code's pattern and the state's code", () => {
    expect(codes({ ...austin, postal_code: "7870" })).toEqual(["postal_code:postal_code_invalid"]);
    expect(codes({ ...austin, state_code: "XX" })).toEqual(["state_code:state_invalid"]);
    expect(codes({ ...austin, state_code: "AE", postal_code: "09001" })).toEqual([]);
    expect(codes({ ...austin, country_code: "ZZ" })).toContain("country_code:country_unknown");
  });

  it("matches a Canadian postal code's first letter to its province", () => {
    const ottawa = { ...austin, city: "Ottawa", postal_code: "K1A 0B1", state_code: "ON", country_code: "CA" };
    expect(codes({ ...ottawa, phone_number: null })).toEqual([]);
    expect(codes({ ...ottawa, state_code: "BC", phone_number: null })).toEqual([
      "postal_code:postal_code_state_mismatch",
    ]);
  });

  it("requires the fields a country needs", () => {
    expect(codes({ ...austin, state_code: "", city: "", address_line1: " " })).toEqual([
      "address_line1:field_required",
      "city:field_required",
      "state_code:field_required",
    ]);
    const berlin = {
      ...austin,
      city: "Berlin",
      postal_code: "",
      state_code: "",
      country_code: "DE",
      phone_number: null,
    };
    expect(codes(berlin)).toEqual(["postal_code:field_required"]);
    expect(codes({ ...berlin, postal_code: "10115" })).toEqual([]);
    expect(codes({ ...berlin, country_code: "SG", postal_code: "018956", city: "" })).toEqual([]);
  });

  it("wants a name or a company on every address", () => {
    expect(codes({ ...austin, person_name: " ", company_name: null })).toEqual(["person_name:name_required"]);
    expect(codes({ ...austin, person_name: null, company_name: "Acme" })).toEqual([]);
  });

  it("offers a phone in E.164 without changing the address", () => {
    const a = { ...austin, phone_number: "(512) 555-0100" };
    const result = checkAddress(a);
    expect(result.messages.map((m) => m.code)).toEqual(["phone_not_e164"]);
    expect(result.suggestions).toEqual([
      { source: "phone_format", address: { ...a, phone_number: "+15125550100" }, changed_fields: ["phone_number"] },
    ]);
    expect(a.phone_number).toBe("(512) 555-0100");
    expect(codes({ ...austin, phone_number: "123" })).toEqual(["phone_number:phone_invalid"]);
  });

  it("warns of lines a carrier cuts, by its own limits", () => {
    const long = { ...austin, address_line1: "1100 North Congress Avenue, Building 7" }; // 38 characters
    expect(codes(long)).toEqual([]);
    expect(codes(long, { carrier: "ups" })).toEqual(["address_line1:line_too_long"]);
    expect(codes(long, { carrier: "fedex" })).toEqual(["address_line1:line_too_long"]);
    expect(codes(long, { carrier: "usps" })).toEqual([]);
    expect(codes({ ...austin, city: "Llanfairpwllgwyngyll Village Ctr" }, { carrier: "usps" })).toEqual([
      "city:line_too_long",
    ]);
  });

  it("refuses a PO Box for a carrier or service that cannot deliver there", () => {
    const box = { ...austin, address_line1: "P.O. Box 1234" };
    expect(codes(box, { carrier: "ups" })).toEqual(["address_line1:po_box_not_served"]);
    expect(codes(box, { carrier: "dhl_express" })).toEqual(["address_line1:po_box_not_served"]);
    expect(codes(box, { carrier: "fedex", service: "FEDEX_GROUND" })).toEqual(["address_line1:po_box_not_served"]);
    expect(codes(box, { carrier: "fedex", service: "SMART_POST" })).toEqual([]);
    expect(codes(box, { carrier: "usps" })).toEqual([]);
    expect(codes({ ...austin, address_line1: "12 Boxwood Lane" }, { carrier: "ups" })).toEqual([]);
  });

  it("names the fields a Latin-only carrier cannot print and offers a transliteration", () => {
    const tokyo = {
      ...austin,
      person_name: "Zoë Tanaka",
      company_name: "ソニー株式会社",
      address_line1: "1-7-1 Konan",
      city: "Minato-ku",
      postal_code: "108-0075",
      state_code: "",
      country_code: "JP",
      phone_number: null,
    };
    const result = checkAddress(tokyo, { carrier: "ups" });
    expect(result.messages).toEqual([
      expect.objectContaining({ field: "company_name", code: "characters_not_printable", level: "warning" }),
    ]);
    // "Zoë" prints on a Latin-1 label; only the company changes, and only in the suggestion.
    expect(result.suggestions).toEqual([
      {
        source: "transliteration",
        address: { ...tokyo, company_name: "soniZhuShiHuiShe" },
        changed_fields: ["company_name"],
      },
    ]);
    expect(tokyo.company_name).toBe("ソニー株式会社");
    expect(checkAddress(tokyo, { carrier: "sandbox" })).toEqual({ messages: [], suggestions: [] });
    // Without a carrier named, the label may be anyone's: most print Latin only (docs/api.md, "Offline checks").
    expect(codes(tokyo)).toEqual(["company_name:characters_not_printable"]);
  });
});
