/**
 * The address vocabulary of the addresses room: what is checked, what a check says, and what it offers instead.
 * Field names are the API's (lib/schemas/address.ts), so a message's `field` points at what the client sent.
 */
export interface CheckedAddress {
  person_name: string | null;
  company_name: string | null;
  address_line1: string;
  address_line2: string | null;
  city: string;
  postal_code: string;
  state_code: string;
  country_code: string;
  phone_number: string | null;
}

export type AddressField = keyof CheckedAddress;

export const ADDRESS_FIELDS = [
  "person_name",
  "company_name",
  "address_line1",
  "address_line2",
  "city",
  "postal_code",
  "state_code",
  "country_code",
  "phone_number",
] as const satisfies readonly AddressField[];

export const ADDRESS_MESSAGE_CODES = [
  "field_required",
  "name_required",
  "country_unknown",
  "postal_code_invalid",
  "state_invalid",
  "postal_code_state_mismatch",
  "phone_invalid",
  "phone_not_e164",
  "line_too_long",
  "po_box_not_served",
  "characters_not_printable",
  // From a carrier's verification:
  "address_not_found",
  "address_corrected",
  "address_ambiguous",
  "verification_unavailable",
] as const;
type AddressMessageCode = (typeof ADDRESS_MESSAGE_CODES)[number];

export interface AddressMessage {
  field: AddressField | null;
  code: AddressMessageCode;
  level: "error" | "warning" | "info";
  text: string;
}

/** Another way to write the address, never applied until the caller chooses it. */
export interface AddressSuggestion {
  /** Why it is offered: a carrier's correction or candidate, a transliteration, a phone in E.164. */
  source: "carrier" | "transliteration" | "phone_format";
  address: CheckedAddress;
  /** The fields whose value differs from what was sent. */
  changed_fields: AddressField[];
}

const norm = (v: string | null) => (v ?? "").trim().toUpperCase().replace(/\s+/g, " ");
const postal = (v: string | null) => norm(v).replace(/[^0-9A-Z]/g, "");

/**
 * The fields whose values differ, case and spacing aside. A postal code that only gains its extension (a ZIP+4 to
 * a ZIP) is the same code, not a change.
 */
export function changedFields(from: CheckedAddress, to: CheckedAddress): AddressField[] {
  return ADDRESS_FIELDS.filter((f) => {
    if (f !== "postal_code") return norm(from[f]) !== norm(to[f]);
    const [a, b] = [postal(from[f]), postal(to[f])];
    const [short, long] = a.length <= b.length ? [a, b] : [b, a];
    return !(a === b || (short.length >= 5 && long.startsWith(short)));
  });
}
