import anyAscii from "any-ascii";
import { country as isoCountry } from "iso-3166-2";
import { parsePhoneNumberFromString, type CountryCode as PhoneCountry } from "libphonenumber-js/min";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import type { CarrierName } from "@/lib/carriers/names";
import { CARRIER_LIMITS, deliversToPoBox } from "./carrier-limits";
import type { AddressField, AddressMessage, AddressSuggestion, CheckedAddress } from "./types";
import { changedFields } from "./types";
import { canadianPostalMatchesProvince, zipMatchesState } from "./zip-prefixes";

/**
 * The offline checks (docs/api.md, "Addresses"): pure, free and always on, run before any carrier is asked. An
 * error makes the address invalid and no carrier is called; a warning is something to look at. What a check can
 * fix (a transliteration, a phone in E.164) is offered as a suggestion and never applied here.
 */
interface OfflineCheckOptions {
  /** The carrier (and service) the label is for, when known: its line lengths, PO Box rule and character set. */
  carrier?: CarrierName | null;
  service?: string | null;
}

interface OfflineCheckResult {
  messages: AddressMessage[];
  suggestions: AddressSuggestion[];
}

// Carriers refuse a label to these without a state or province (UPS, FedEx and USPS for US/CA; AU, MX, BR, IN).
const STATE_REQUIRED = new Set(["US", "CA", "AU", "MX", "BR", "IN"]);
// Where a state is checked against ISO 3166-2: the countries whose carriers take the subdivision's code.
const STATE_CHECKED = STATE_REQUIRED;
// Codes the US Postal Service uses beyond ISO 3166-2's: the armed forces and the freely associated states.
const US_POSTAL_EXTRA = new Set(["AA", "AE", "AP", "FM", "MH", "PW"]);
// City-states and places where the post needs no city line.
const NO_CITY = new Set(["SG", "MC", "VA", "GI", "HK", "MO"]);
// Countries whose postal code exists but is not required to deliver (Ireland's Eircode).
const POSTAL_OPTIONAL = new Set(["IE"]);

const PO_BOX = /\b(?:p\.?\s*o\.?\s*box|post\s+office\s+box|pob\s+\d|postfach|apartado\s+postal|bo[iî]te\s+postale)\b/i;
// What an ISO-8859-1 label prints: anything beyond it comes out as "?" on a Latin-only carrier's label.
const NOT_LATIN = /[^\u0000-\u00ff]/u;
const NOT_LATIN_RUNS = /[^\u0000-\u00ff]+/gu;
const PRINTED: readonly AddressField[] = ["person_name", "company_name", "address_line1", "address_line2", "city"];

const present = (v: string | null | undefined): v is string => typeof v === "string" && v.trim() !== "";

export function checkAddress(address: CheckedAddress, options: OfflineCheckOptions = {}): OfflineCheckResult {
  const messages: AddressMessage[] = [];
  const suggestions: AddressSuggestion[] = [];
  const error = (field: AddressField | null, code: AddressMessage["code"], text: string) =>
    messages.push({ field, code, level: "error", text });
  const warn = (field: AddressField | null, code: AddressMessage["code"], text: string) =>
    messages.push({ field, code, level: "warning", text });

  const cc = address.country_code.trim().toUpperCase();
  const iso = /^[A-Z]{2}$/.test(cc) ? isoCountry(cc) : null;
  if (!iso) error("country_code", "country_unknown", `"${cc}" is not an ISO 3166 country code.`);

  if (!present(address.person_name) && !present(address.company_name)) {
    error("person_name", "name_required", "A person's name or a company name is required on every address.");
  }
  if (!present(address.address_line1)) error("address_line1", "field_required", "The street line is required.");
  if (!present(address.city) && !NO_CITY.has(cc)) error("city", "field_required", `The city is required in ${cc}.`);

  const state = address.state_code.trim().toUpperCase();
  const stateOk = checkState(cc, state, iso?.sub ?? null, error);
  const postalOk = checkPostal(cc, address.postal_code.trim(), error);
  if (stateOk && postalOk) checkPostalAgainstState(cc, address.postal_code.trim(), state, error);

  const phone = checkPhone(address, cc, warn);
  if (phone) suggestions.push(phone);

  const limits = options.carrier ? CARRIER_LIMITS[options.carrier] : null;
  if (limits && options.carrier) {
    const name = options.carrier;
    const fits: [AddressField, number][] = [
      ["address_line1", limits.street],
      ["address_line2", limits.street],
      ["city", limits.city],
      ["person_name", limits.name],
      ["company_name", limits.name],
    ];
    for (const [field, max] of fits) {
      const length = (address[field] ?? "").trim().length;
      if (length > max) {
        warn(field, "line_too_long", `${name} prints ${max} characters of ${field}; this one has ${length}.`);
      }
    }
    const box = [address.address_line1, address.address_line2].some((l) => present(l) && PO_BOX.test(l));
    if (box && !deliversToPoBox(name, options.service ?? null)) {
      const which = options.service ? `${name} ${options.service}` : name;
      error("address_line1", "po_box_not_served", `${which} does not deliver to a PO Box: give a street address.`);
    }
  }

  // Without a carrier named, most carriers print Latin only: warn unless the label is our own.
  if (!limits || limits.latinOnly) {
    const transliterated = { ...address };
    for (const field of PRINTED) {
      const value = address[field];
      if (!present(value) || !NOT_LATIN.test(value)) continue;
      const ascii = value.replace(NOT_LATIN_RUNS, (s) => anyAscii(s));
      transliterated[field] = ascii;
      warn(
        field,
        "characters_not_printable",
        `${field} has characters the carrier cannot print; "${ascii}" would print.`,
      );
    }
    const changed = changedFields(address, transliterated);
    if (changed.length > 0)
      suggestions.push({ source: "transliteration", address: transliterated, changed_fields: changed });
  }
  return { messages, suggestions };
}

type Report = (field: AddressField, code: AddressMessage["code"], text: string) => void;

function checkState(cc: string, state: string, subs: Record<string, unknown> | null, error: Report): boolean {
  if (state === "") {
    if (STATE_REQUIRED.has(cc)) error("state_code", "field_required", `The state or province is required in ${cc}.`);
    return false;
  }
  if (!STATE_CHECKED.has(cc) || !subs) return true;
  if (`${cc}-${state}` in subs || (cc === "US" && US_POSTAL_EXTRA.has(state))) return true;
  error("state_code", "state_invalid", `"${state}" is not a state or province code of ${cc}.`);
  return false;
}

function checkPostal(cc: string, postal: string, error: Report): boolean {
  if (!postcodeValidatorExistsForCountry(cc)) return postal !== "";
  if (postal === "") {
    if (!POSTAL_OPTIONAL.has(cc)) error("postal_code", "field_required", `The postal code is required in ${cc}.`);
    return false;
  }
  if (!postcodeValidator(postal, cc)) {
    error("postal_code", "postal_code_invalid", `"${postal}" is not written as a postal code of ${cc}.`);
    return false;
  }
  return true;
}

function checkPostalAgainstState(cc: string, postal: string, state: string, error: Report) {
  const matches =
    cc === "US" ? zipMatchesState(postal, state) : cc === "CA" ? canadianPostalMatchesProvince(postal, state) : null;
  if (matches === false) {
    error("postal_code", "postal_code_state_mismatch", `${postal} is not a postal code of ${cc}-${state}.`);
  }
}

function checkPhone(address: CheckedAddress, cc: string, warn: Report): AddressSuggestion | null {
  const raw = address.phone_number?.trim();
  if (!raw) return null;
  const parsed = parsePhoneNumberFromString(raw, /^[A-Z]{2}$/.test(cc) ? (cc as PhoneCountry) : undefined);
  if (!parsed || !parsed.isValid()) {
    warn("phone_number", "phone_invalid", "The phone number is not a valid number for its country.");
    return null;
  }
  if (parsed.number === raw) return null;
  warn("phone_number", "phone_not_e164", `The phone number in international form is ${parsed.number}.`);
  const address164 = { ...address, phone_number: parsed.number };
  return { source: "phone_format", address: address164, changed_fields: ["phone_number"] };
}
