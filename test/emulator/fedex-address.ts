import { congressAveHouse } from "./ups-address";

/**
 * FedEx Address Validation in the emulator (address-validation.json, `POST /address/v1/addresses/resolve`): a small
 * street directory answered as FedEx resolves, one `resolvedAddresses[]` entry per address sent, in order, with the
 * `clientReferenceId` sent. An address it holds comes back STANDARDIZED and resolved, written FedEx's way with its
 * ZIP+4 and classification; one whose building needs a suite comes back with the suite added
 * (`SuiteRequiredButMissing`); a street that runs both ways comes back with FedEx's pick and `MultipleMatches`; a
 * street number FedEx only interpolates says so in a customer message; any other address of a country it checks is
 * NORMALIZED and not resolved. Countries outside the file's own samples (US, Canada, Germany, Italy, UK) and Puerto
 * Rico are the emulator's "not supported" (RAW): which countries FedEx covers is not in the file. Names are never
 * read. Attributes are booleans and the messages `customerMessage`, as the file types them.
 */
interface Entry {
  lines: string[];
  city: string;
  state: string;
  zip: string;
  plus4?: string;
  classification: "BUSINESS" | "RESIDENTIAL" | "MIXED" | "UNKNOWN";
  suiteAdded?: boolean;
  multipleMatches?: boolean;
  interpolated?: boolean;
}

const DIRECTORY: Record<string, Entry> = {
  // Verified: sent as the directory holds it (case and ZIP+4 aside).
  "US|1100 CONGRESS AVE|78701": {
    lines: ["1100 CONGRESS AVE"],
    city: "AUSTIN",
    state: "TX",
    zip: "78701",
    plus4: "2428",
    classification: "BUSINESS",
  },
  "US|4 PRIVET DR|94105": {
    lines: ["4 PRIVET DR"],
    city: "SAN FRANCISCO",
    state: "CA",
    zip: "94105",
    plus4: "1804",
    classification: "RESIDENTIAL",
  },
  // Corrected: a high-rise whose deliveries need the suite, which FedEx adds.
  "US|500 W 2ND ST|78701": {
    lines: ["500 W 2ND ST", "STE 1900"],
    city: "AUSTIN",
    state: "TX",
    zip: "78701",
    plus4: "4687",
    classification: "BUSINESS",
    suiteAdded: true,
  },
  // Ambiguous: the street runs north and south of the divide; FedEx picks one and says there are others.
  "US|100 MAIN ST|10001": {
    lines: ["100 N MAIN ST"],
    city: "NEW YORK",
    state: "NY",
    zip: "10001",
    plus4: "1001",
    classification: "MIXED",
    multipleMatches: true,
  },
  // Ambiguous: the number falls within the street's range, but FedEx cannot confirm it.
  "US|1190 CONGRESS AVE|78701": {
    lines: ["1190 CONGRESS AVE"],
    city: "AUSTIN",
    state: "TX",
    zip: "78701",
    classification: "UNKNOWN",
    interpolated: true,
  },
  // FedEx's own Canadian sample, the city misspelt as the sample spells it.
  "CA|100 QUEEN ST W|M5H2N1": {
    lines: ["100 QUEEN ST W"],
    city: "TORONTO",
    state: "ON",
    zip: "M5H2N1",
    classification: "BUSINESS",
  },
  // Germany: resolved generically; FedEx classifies, but only the US and Canada are read.
  "DE|UNTER DEN LINDEN 1|10117": {
    lines: ["UNTER DEN LINDEN 1"],
    city: "BERLIN",
    state: "",
    zip: "10117",
    classification: "RESIDENTIAL",
  },
};

const CHECKED = new Set(["US", "PR", "CA", "DE", "IT", "GB"]);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const norm = (v: string) => v.trim().toUpperCase().replace(/\s+/g, " ");

/**
 * The prose rules of address-validation.json the schema cannot say: the fields that break one (the emulator's FedEx
 * module refuses them as FedEx's INVALID.INPUT.EXCEPTION).
 */
export function resolveProblems(body: Json): string[] {
  const out: string[] = [];
  const list = Array.isArray(body.addressesToValidate) ? body.addressesToValidate : [];
  // "Up to 100 of these can be submitted in a single request."
  if (list.length === 0 || list.length > 100) out.push("addressesToValidate");
  list.forEach((item, i) => {
    const a = obj(obj(item).address);
    const lines = Array.isArray(a.streetLines) ? a.streetLines : [];
    // "At least one line is required …; empty lines should not be included"; "Maximum up to three lines".
    if (lines.length === 0 || lines.length > 3 || lines.some((l) => str(l).trim() === "")) {
      out.push(`addressesToValidate[${i}].address.streetLines`);
    }
    // stateOrProvinceCode: "Maximum length is 2".
    if (str(a.stateOrProvinceCode).length > 2) out.push(`addressesToValidate[${i}].address.stateOrProvinceCode`);
  });
  return out;
}

/** FedEx's resolution of one `addressesToValidate[]` item. */
export function resolvedAddress(item: Json): Json {
  const a = obj(item.address);
  const lines = (Array.isArray(a.streetLines) ? a.streetLines : []).map(str);
  const country = norm(str(a.countryCode) || "US");
  const postal = norm(str(a.postalCode)).replace(/\s/g, "");
  const zip = country === "US" || country === "PR" ? postal.slice(0, 5) : postal;
  const line = norm(lines[0] ?? "");
  const house = country === "US" ? congressAveHouse(line, zip) : null;
  const entry: Entry | undefined =
    DIRECTORY[`${country}|${line}|${zip}`] ??
    (house
      ? { lines: [line], city: "AUSTIN", state: "TX", zip, plus4: house.plus4, classification: "RESIDENTIAL" }
      : undefined);
  const ref = item.clientReferenceId === undefined ? {} : { clientReferenceId: str(item.clientReferenceId) };
  const base = {
    POBox: false,
    SuiteRequiredButMissing: false,
    InvalidSuiteNumber: false,
    ResolutionInput: "RAW_ADDRESS",
    DataVintage: "November 2026",
    MatchSource: "Postal",
    ValidlyFormed: true,
    Inserted: false,
    MultipleMatches: false,
  };
  if (!CHECKED.has(country) || !entry) {
    const supported = CHECKED.has(country);
    return {
      ...ref,
      streetLinesToken: lines.map(norm),
      city: norm(str(a.city)),
      stateOrProvinceCode: norm(str(a.stateOrProvinceCode)),
      countryCode: country,
      parsedPostalCode: { base: postal },
      classification: "UNKNOWN",
      customerMessage: [],
      resolutionMethodName: "GENERIC_VALIDATE",
      attributes: {
        ...base,
        ResolutionMethod: "GENERIC_VALIDATE",
        CountrySupported: supported,
        Matched: false,
        Resolved: false,
        StreetAddress: false,
        DPV: false,
        AddressType: supported ? "NORMALIZED" : "RAW",
      },
    };
  }
  const us = country === "US" || country === "PR";
  const method = us ? "USPS_VALIDATE" : country === "CA" ? "CA_VALIDATE" : "GENERIC_VALIDATE";
  return {
    ...ref,
    streetLinesToken: entry.lines,
    city: entry.city,
    stateOrProvinceCode: entry.state,
    countryCode: country,
    cityToken: [{ changed: norm(str(a.city)) !== entry.city, value: entry.city }],
    postalCodeToken: { changed: postal !== entry.zip, value: entry.zip },
    parsedPostalCode: { base: entry.zip, ...(entry.plus4 ? { addOn: entry.plus4 } : {}) },
    classification: entry.classification,
    postOfficeBox: false,
    ...(us ? { normalizedStatusNameDPV: !entry.interpolated } : {}),
    standardizedStatusNameMatchSource: "Postal",
    resolutionMethodName: method,
    ruralRouteHighwayContract: false,
    generalDelivery: false,
    customerMessage: entry.interpolated
      ? [
          {
            code: "INTERPOLATED.STREET.ADDRESS",
            message:
              "Unable to confirm exact street number for the entered street name. The address falls within a valid range for the street name.",
          },
        ]
      : [],
    attributes: {
      ...base,
      ResolutionMethod: method,
      CountrySupported: true,
      Matched: true,
      Resolved: true,
      SuiteRequiredButMissing: !!entry.suiteAdded,
      MultipleMatches: !!entry.multipleMatches,
      StreetAddress: !entry.interpolated,
      ...(us ? { DPV: !entry.interpolated, ZIP4Match: !!entry.plus4 } : {}),
      AddressType: "STANDARDIZED",
      AddressPrecision: entry.suiteAdded ? "MULTI_TENANT_UNIT" : "STREET_ADDRESS",
    },
  };
}
