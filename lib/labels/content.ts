import type { Address } from "@/lib/carriers/types";

/**
 * What a shipping label shows, independent of the file format. Carrier adapters that render their own labels
 * (today only the sandbox) fill this in; the PDF, ZPL and PNG renderers all draw the same layout from it.
 */
export interface LabelContent {
  /** Carrier display name printed in the header, e.g. "Sandbox". */
  carrierName: string;
  /** e.g. "Sandbox Ground". */
  serviceName: string;
  trackingNumber: string;
  shipper: Address;
  recipient: Address;
  /** Free text such as "2.5 KG" or "3 parcels, 7.25 KG". */
  weightText: string;
  reference: string | null;
  /** Ship date, `YYYY-MM-DD`. */
  shipDate: string;
  /** Encoded as Code 128; usually the tracking number. Printable ASCII only (other characters are replaced). */
  barcodeValue: string;
  /** Large routing line above the barcode, e.g. "ZONE 9 - NEW YORK" or null to leave it out. */
  routingText?: string | null;
  /** A line printed in the footer, e.g. "TEST LABEL - NOT VALID FOR SHIPPING" for sandbox labels. */
  footerText?: string | null;
}

/** The lines of an address block, most specific first, blank parts left out, the city line in local style. */
export function addressLines(address: Address): string[] {
  return addressLineFields(address).map((l) => l.text);
}

/** The address block's lines, each with the field it prints (the city line also holds the state and postal code). */
export function addressLineFields(address: Address): { field: keyof Address; text: string }[] {
  const lines: { field: keyof Address; text: string }[] = [];
  const push = (field: keyof Address, value: string | null | undefined): void => {
    const v = value?.trim();
    if (v) lines.push({ field, text: v });
  };
  push("person_name", address.person_name);
  push("company_name", address.company_name);
  push("address_line1", address.address_line1);
  push("address_line2", address.address_line2);
  push("suburb", address.suburb);
  const city = address.city.trim();
  const state = address.state_code.trim();
  const postal = address.postal_code.trim();
  const country = address.country_code.trim().toUpperCase();
  if (POSTAL_CODE_FIRST.has(country)) {
    push("city", [postal, city].filter(Boolean).join(" ") + (state ? ` ${state}` : ""));
  } else if (POSTCODE_OWN_LINE.has(country)) {
    push("city", city.toUpperCase());
    push("postal_code", postal.toUpperCase());
  } else {
    push("city", [city, [state, postal].filter(Boolean).join(" ")].filter(Boolean).join(", "));
  }
  push("country_code", address.country_code);
  return lines;
}

// How the city line is written where the postal code does not follow the city and state as in the US/CA/AU.
// Continental Europe and Latin America put it first ("80331 München"); the UK and Ireland give it its own line.
const POSTAL_CODE_FIRST = new Set([
  "AT",
  "BE",
  "BR",
  "CH",
  "CZ",
  "DE",
  "DK",
  "ES",
  "FI",
  "FR",
  "GR",
  "HU",
  "IS",
  "IT",
  "LU",
  "MX",
  "NL",
  "NO",
  "PL",
  "PT",
  "SE",
  "SK",
]);
const POSTCODE_OWN_LINE = new Set(["GB", "IE"]);

// Latin letters that Unicode does not decompose into a base letter plus accent.
const LATIN_FOLDS: Record<string, string> = {
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ð: "D",
  ð: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  Ø: "O",
  ø: "o",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  ß: "ss",
  Þ: "Th",
  þ: "th",
};

/** One character as plain Latin letters when it has an obvious fold (é → e, Ł → L), else unchanged. */
function foldLatin(ch: string): string {
  return LATIN_FOLDS[ch] ?? ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
}

/**
 * Folds text to printable ASCII: accents are dropped (é → e, Ł → L), line breaks and controls become spaces,
 * anything else outside ASCII becomes "?". The PNG renderer's built-in font and Code 128 only cover ASCII.
 */
export function toPrintableAscii(text: string): string {
  return Array.from(text, foldLatin)
    .join("")
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/[^\u0020-\u007e]/g, "?");
}

/**
 * Control characters (including CR/LF) → spaces, so one field stays on one line in every format; and NFC, so a
 * letter typed as base + combining accent (macOS pastes "Zoë" so) is the one precomposed letter every format prints
 * (a ZPL printer's font 0 has "ë" but no combining marks).
 */
export function singleLine(text: string): string {
  return text.normalize("NFC").replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ");
}
