import type { AddressValidationResult, SavedAddress, SavedAddressCreate } from "@/lib/schemas/address-book";
import type { AddressValues } from "./form-schema";

/**
 * The create-label form's side of an address check (docs/api.md, "Addresses"): what is sent to
 * `POST /v1/addresses/validate`, which messages go on which field, and a suggestion as a diff of the form's fields.
 * A suggestion is applied only when the clerk accepts it; "Keep mine" is remembered per address in this browser.
 */
type CheckResult = AddressValidationResult;
type Suggestion = CheckResult["suggestions"][number];
type CheckMessage = CheckResult["messages"][number];
/** The fields a check reads and a suggestion may change: the form's names are the API's. */
type CheckedField = Suggestion["changed_fields"][number];

/** What the API checks, from the form's text: trimmed, optional lines null when empty. */
export function addressToCheck(values: AddressValues) {
  const text = (v: string) => v.trim();
  const optional = (v: string) => v.trim() || null;
  return {
    person_name: optional(values.person_name),
    company_name: optional(values.company_name),
    address_line1: text(values.address_line1),
    address_line2: optional(values.address_line2),
    city: text(values.city),
    postal_code: text(values.postal_code),
    state_code: text(values.state_code).toUpperCase(),
    country_code: text(values.country_code).toUpperCase(),
    phone_number: optional(values.phone_number),
  };
}
export type AddressToCheck = ReturnType<typeof addressToCheck>;

/** One address, one key: the same text checked again is the same question (asked once, remembered once). */
export const addressKey = (values: AddressValues) => JSON.stringify(addressToCheck(values));

/** Worth a check once the clerk has left the block: a country, a street and a postal code or a city. */
export function checkable(values: AddressValues): boolean {
  const a = addressToCheck(values);
  return /^[A-Z]{2}$/.test(a.country_code) && a.address_line1 !== "" && (a.postal_code !== "" || a.city !== "");
}

const FIELD_LABELS: Record<CheckedField, string> = {
  person_name: "Name",
  company_name: "Company",
  address_line1: "Street address",
  address_line2: "Apartment, suite, unit",
  city: "City",
  state_code: "State",
  postal_code: "Postal code",
  country_code: "Country",
  phone_number: "Phone",
};

export interface FieldChange {
  field: CheckedField;
  label: string;
  from: string;
  to: string;
}

/** The suggestion as old -> new per field it changes (the API's `changed_fields`), as the form holds them now. */
export function suggestionDiff(values: AddressValues, suggestion: Suggestion): FieldChange[] {
  return suggestion.changed_fields.map((field) => ({
    field,
    label: FIELD_LABELS[field],
    from: values[field].trim(),
    to: suggestion.address[field] ?? "",
  }));
}

/** The form's values with the suggestion's changed fields written in; every other field stays as typed. */
export function applySuggestion(values: AddressValues, suggestion: Suggestion): AddressValues {
  const next = { ...values };
  for (const field of suggestion.changed_fields) next[field] = suggestion.address[field] ?? "";
  return next;
}

const SEVERITY = { error: 2, warning: 1, info: 0 } as const;
/** Said under the field itself, where the API's text (which names the field by its key) would repeat it. */
const UNDER_FIELD: Partial<Record<CheckMessage["code"], string>> = {
  characters_not_printable: "Most carriers print Latin letters only: these characters would come out as “?”.",
};
// Said by the suggestion's diff, not under one field.
const SHOWN_AS_DIFF = new Set<CheckMessage["code"]>(["address_corrected", "address_ambiguous"]);

export interface FieldNotice {
  level: CheckMessage["level"];
  text: string;
}

/** The messages that name a field, one notice per field (the worst level first, the texts joined). */
export function fieldNotices(result: CheckResult): Partial<Record<CheckedField, FieldNotice>> {
  const out: Partial<Record<CheckedField, FieldNotice>> = {};
  const messages = result.messages
    .filter((m) => m.field !== null && !SHOWN_AS_DIFF.has(m.code))
    .sort((a, b) => SEVERITY[b.level] - SEVERITY[a.level]);
  for (const m of messages) {
    const field = m.field!;
    const seen = out[field];
    const text = UNDER_FIELD[m.code] ?? m.text;
    out[field] = seen ? { level: seen.level, text: `${seen.text} ${text}` } : { level: m.level, text };
  }
  return out;
}

/**
 * The messages about the address as a whole (the carrier knows no such address); why no carrier verified it is said
 * by the verdict itself.
 */
export const addressNotices = (result: CheckResult) =>
  result.messages.filter(
    (m) => m.field === null && !SHOWN_AS_DIFF.has(m.code) && m.code !== "verification_unavailable",
  );

/**
 * The carrier's verdict on residential against what the rates assumed: the recipient's residential flag they were
 * asked with (rates carry no classification of their own), or the form's flag before any rates. Null when they
 * agree or the carrier does not know.
 */
export function residentialMismatch(
  result: Pick<CheckResult, "residential">,
  assumed: boolean,
): { carrier: boolean; assumed: boolean } | null {
  if (result.residential === null || result.residential === assumed) return null;
  return { carrier: result.residential, assumed };
}

// "Keep mine", remembered in this browser per person and organization: a hash of the address and the kind of
// suggestion, never the address itself.

type KeptStorage = Pick<Storage, "getItem" | "setItem">;
const MAX_KEPT = 500;

export const keptKey = (orgId: string, userId: string) => `shipwell:create-label:kept:${orgId}:${userId}`;

/** cyrb53: a 53-bit string hash, enough to tell a few hundred addresses apart without storing them. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const keptEntry = (address: string, source: Suggestion["source"]) => hash(`${source}|${address}`);

function readKept(storage: KeptStorage, key: string): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((e): e is string => typeof e === "string") : [];
  } catch {
    return [];
  }
}

export function isKept(storage: KeptStorage, key: string, address: string, source: Suggestion["source"]): boolean {
  return readKept(storage, key).includes(keptEntry(address, source));
}

export function rememberKept(storage: KeptStorage, key: string, address: string, source: Suggestion["source"]) {
  const entry = keptEntry(address, source);
  const kept = [...readKept(storage, key).filter((e) => e !== entry), entry].slice(-MAX_KEPT);
  try {
    storage.setItem(key, JSON.stringify(kept));
  } catch {
    // Storage refused (a private window): the choice holds until the page is left.
  }
}

/** A saved address as the form's fields; the residential flag only where the book knows it. */
export function savedToValues(saved: SavedAddress, current: AddressValues): AddressValues {
  return {
    country_code: saved.country_code,
    person_name: saved.person_name ?? "",
    company_name: saved.company_name ?? "",
    address_line1: saved.address_line1,
    address_line2: saved.address_line2 ?? "",
    city: saved.city,
    state_code: saved.state_code,
    postal_code: saved.postal_code,
    phone_number: saved.phone_number ?? "",
    email: saved.email ?? "",
    residential: saved.residential ?? current.residential,
  };
}

/** The body of `POST /v1/addresses` for the form's address. */
export function valuesToSaved(values: AddressValues): Omit<SavedAddressCreate, "is_default_sender" | "label"> {
  const a = addressToCheck(values);
  return {
    ...a,
    federal_tax_id: null,
    email: values.email.trim() || null,
    residential: values.residential,
  };
}

/** One line for a saved address in the picker: who, then where. */
export function savedSummary(saved: SavedAddress): { title: string; detail: string } {
  const who = [saved.label, saved.person_name, saved.company_name].filter(Boolean);
  const place = [saved.city, [saved.state_code, saved.postal_code].filter(Boolean).join(" "), saved.country_code];
  return {
    title: who.length > 0 ? who.join(" · ") : saved.address_line1,
    detail: [saved.address_line1, saved.address_line2, ...place].filter(Boolean).join(", "),
  };
}
