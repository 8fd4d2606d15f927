import { describe, expect, it } from "vitest";
import type { AddressValidationResult, SavedAddress } from "@/lib/schemas/address-book";
import {
  addressKey,
  addressNotices,
  addressToCheck,
  applySuggestion,
  checkable,
  fieldNotices,
  isKept,
  keptKey,
  rememberKept,
  residentialMismatch,
  savedSummary,
  savedToValues,
  suggestionDiff,
  valuesToSaved,
} from "./address-check";
import type { AddressValues } from "./form-schema";

const typed: AddressValues = {
  country_code: "us",
  person_name: " Rita Recipient ",
  company_name: "",
  address_line1: "500 W 2nd St",
  address_line2: "",
  city: "Austin",
  state_code: "tx",
  postal_code: "78701",
  phone_number: "",
  email: "rita@example.com",
  residential: false,
};

type Result = AddressValidationResult;
const checked = addressToCheck(typed);
const corrected: Result["suggestions"][number] = {
  source: "carrier",
  address: {
    ...checked,
    address_line1: "500 W 2ND ST",
    address_line2: "STE 1900",
    city: "AUSTIN",
    postal_code: "78701-4687",
  },
  changed_fields: ["address_line2"],
};

function result(over: Partial<Result> = {}): Result {
  return {
    status: "verified",
    address: checked,
    suggestions: [],
    residential: null,
    provider: null,
    cached: false,
    messages: [],
    ...over,
  };
}

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}

describe("the create-label form's address check", () => {
  it("sends the address trimmed, codes upper-cased, empty optional lines as null", () => {
    expect(checked).toEqual({
      person_name: "Rita Recipient",
      company_name: null,
      address_line1: "500 W 2nd St",
      address_line2: null,
      city: "Austin",
      postal_code: "78701",
      state_code: "TX",
      country_code: "US",
      phone_number: null,
    });
    // Email and the residential flag are not part of what is checked: changing them asks nothing again.
    expect(addressKey({ ...typed, email: "", residential: true })).toBe(addressKey(typed));
    expect(addressKey({ ...typed, postal_code: "78702" })).not.toBe(addressKey(typed));
  });

  it("checks a block only once it has a country, a street and a postal code or city", () => {
    expect(checkable(typed)).toBe(true);
    expect(checkable({ ...typed, address_line1: "  " })).toBe(false);
    expect(checkable({ ...typed, postal_code: "", city: "" })).toBe(false);
    expect(checkable({ ...typed, postal_code: "" })).toBe(true);
    expect(checkable({ ...typed, country_code: "" })).toBe(false);
  });

  it("shows a suggestion as old -> new for the fields it changes, and applies only those", () => {
    expect(suggestionDiff(typed, corrected)).toEqual([
      { field: "address_line2", label: "Apartment, suite, unit", from: "", to: "STE 1900" },
    ]);
    const accepted = applySuggestion(typed, corrected);
    // The street's case and the ZIP+4 are not changes: the clerk's text stays.
    expect(accepted).toEqual({ ...typed, address_line2: "STE 1900" });
    expect(typed.address_line2).toBe("");
  });

  it("writes an empty field for a suggestion that drops a line", () => {
    const dropped = {
      ...corrected,
      address: { ...corrected.address, address_line2: null },
      changed_fields: ["address_line2" as const],
    };
    const filled = { ...typed, address_line2: "Back door" };
    expect(suggestionDiff(filled, dropped)).toEqual([
      { field: "address_line2", label: "Apartment, suite, unit", from: "Back door", to: "" },
    ]);
    expect(applySuggestion(filled, dropped).address_line2).toBe("");
  });

  it("puts messages on their fields, the worst first, and leaves whole-address ones and diff ones apart", () => {
    const r = result({
      status: "invalid",
      messages: [
        { field: "phone_number", code: "phone_not_e164", level: "warning", text: "In E.164: +15125550123." },
        { field: "postal_code", code: "postal_code_invalid", level: "warning", text: "Looks odd." },
        { field: "postal_code", code: "postal_code_state_mismatch", level: "error", text: "60607 is not in TX." },
        { field: "address_line2", code: "address_corrected", level: "warning", text: "UPS changed line 2." },
        { field: null, code: "address_not_found", level: "error", text: "UPS knows no such address." },
        { field: null, code: "verification_unavailable", level: "info", text: "No connection verifies US." },
        { field: "company_name", code: "characters_not_printable", level: "warning", text: "company_name has…" },
      ],
    });
    expect(fieldNotices(r)).toEqual({
      postal_code: { level: "error", text: "60607 is not in TX. Looks odd." },
      phone_number: { level: "warning", text: "In E.164: +15125550123." },
      // Under its own field, in words rather than the API's field key.
      company_name: { level: "warning", text: expect.stringMatching(/^Most carriers print Latin letters only/) },
    });
    expect(addressNotices(r).map((m) => m.code)).toEqual(["address_not_found"]);
  });

  it("warns of residential only when the carrier knows it and it differs from what the rates assumed", () => {
    expect(residentialMismatch({ residential: true }, false)).toEqual({ carrier: true, assumed: false });
    expect(residentialMismatch({ residential: false }, true)).toEqual({ carrier: false, assumed: true });
    expect(residentialMismatch({ residential: true }, true)).toBeNull();
    expect(residentialMismatch({ residential: null }, true)).toBeNull();
  });

  it("remembers Keep mine per person, address and kind of suggestion, without storing the address", () => {
    const storage = memoryStorage();
    const key = keptKey("org_1", "user_1");
    const address = addressKey(typed);
    expect(isKept(storage, key, address, "carrier")).toBe(false);
    rememberKept(storage, key, address, "carrier");
    rememberKept(storage, key, address, "carrier");
    expect(isKept(storage, key, address, "carrier")).toBe(true);
    expect(isKept(storage, key, address, "transliteration")).toBe(false);
    expect(isKept(storage, key, addressKey({ ...typed, address_line1: "501 W 2nd St" }), "carrier")).toBe(false);
    expect(isKept(storage, keptKey("org_1", "user_2"), address, "carrier")).toBe(false);
    const stored = storage.items.get(key)!;
    expect(JSON.parse(stored)).toHaveLength(1);
    expect(stored).not.toMatch(/Austin|500|Rita/i);
  });

  it("reads a damaged store as empty", () => {
    const storage = memoryStorage();
    const key = keptKey("org_1", "user_1");
    storage.setItem(key, "{not json");
    expect(isKept(storage, key, addressKey(typed), "carrier")).toBe(false);
    rememberKept(storage, key, addressKey(typed), "carrier");
    expect(isKept(storage, key, addressKey(typed), "carrier")).toBe(true);
  });

  it("fills the form from a saved address and saves the form's address", () => {
    const saved: SavedAddress = {
      id: "adb_1",
      object_type: "address",
      label: "Warehouse",
      person_name: null,
      company_name: "Acme",
      address_line1: "1100 Congress Ave",
      address_line2: null,
      city: "Austin",
      postal_code: "78701",
      state_code: "TX",
      country_code: "US",
      residential: null,
      email: null,
      phone_number: "+15125550100",
      federal_tax_id: null,
      is_default_sender: false,
      created_at: "2026-11-27T00:00:00Z",
      updated_at: "2026-11-27T00:00:00Z",
    };
    const filled = savedToValues(saved, { ...typed, residential: true });
    expect(filled).toMatchObject({ person_name: "", company_name: "Acme", address_line2: "", residential: true });
    expect(savedToValues({ ...saved, residential: false }, typed).residential).toBe(false);
    expect(savedSummary(saved)).toEqual({
      title: "Warehouse · Acme",
      detail: "1100 Congress Ave, Austin, TX 78701, US",
    });
    expect(valuesToSaved(typed)).toMatchObject({
      person_name: "Rita Recipient",
      company_name: null,
      state_code: "TX",
      email: "rita@example.com",
      residential: false,
    });
  });
});
