import type { EmulatorRequest, EmulatorResponse } from "./server";

/**
 * UPS Address Validation in the emulator (AddressValidation.yaml, request option 3): a small street directory that
 * answers as UPS's XAV does. An address it holds comes back valid, written UPS's way with its ZIP+4 and
 * classification; one that needs a suite comes back with the suite added; a street that runs both ways is
 * ambiguous, with a candidate per way; any other is "no candidates". Names are ignored, as UPS does.
 */
interface Entry {
  lines: string[];
  city: string;
  state: string;
  zip: string;
  plus4: string;
  /** "1" commercial, "2" residential, "0" unknown. */
  classification: "0" | "1" | "2";
}

const DIRECTORY: Record<string, Entry[]> = {
  // Verified: sent as the directory holds it (case and ZIP+4 aside).
  "1100 CONGRESS AVE|78701": [
    { lines: ["1100 CONGRESS AVE"], city: "AUSTIN", state: "TX", zip: "78701", plus4: "2428", classification: "1" },
  ],
  "4 PRIVET DR|94105": [
    { lines: ["4 PRIVET DR"], city: "SAN FRANCISCO", state: "CA", zip: "94105", plus4: "1804", classification: "2" },
  ],
  // Corrected: a high-rise whose deliveries need the suite.
  "500 W 2ND ST|78701": [
    {
      lines: ["500 W 2ND ST", "STE 1900"],
      city: "AUSTIN",
      state: "TX",
      zip: "78701",
      plus4: "4687",
      classification: "1",
    },
  ],
  // Ambiguous: the street runs north and south of the divide.
  "100 MAIN ST|10001": [
    { lines: ["100 N MAIN ST"], city: "NEW YORK", state: "NY", zip: "10001", plus4: "1001", classification: "2" },
    { lines: ["100 S MAIN ST"], city: "NEW YORK", state: "NY", zip: "10001", plus4: "1002", classification: "0" },
  ],
};

/**
 * A residential stretch of Congress Ave (78701), numbers 2000–3999: every house on it is known, as a real directory
 * knows a street's range, so many distinct addresses verify (bench:addresses validates 1 000 of them).
 */
export function congressAveHouse(line: string, zip: string): { plus4: string } | null {
  const m = /^(\d{4}) CONGRESS AVE$/.exec(line);
  const n = m ? Number(m[1]) : 0;
  return zip === "78701" && n >= 2000 && n <= 3999 ? { plus4: String(n).padStart(4, "0") } : null;
}

function lookUp(line: string, zip: string): Entry[] {
  const known = DIRECTORY[`${line}|${zip}`];
  if (known) return known;
  const house = congressAveHouse(line, zip);
  return house ? [{ lines: [line], city: "AUSTIN", state: "TX", zip, plus4: house.plus4, classification: "2" }] : [];
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function addressValidation(req: EmulatorRequest): EmulatorResponse {
  const key = (req.json as { XAVRequest?: { AddressKeyFormat?: Record<string, unknown> } } | null)?.XAVRequest
    ?.AddressKeyFormat;
  const line = (Array.isArray(key?.AddressLine) ? key.AddressLine.map(str) : [str(key?.AddressLine)])[0] ?? "";
  const zip = str(key?.PostcodePrimaryLow).slice(0, 5);
  const found = lookUp(line.trim().toUpperCase().replace(/\s+/g, " "), zip);
  const response = { ResponseStatus: { Code: "1", Description: "Success" } };
  if (found.length === 0)
    return { status: 200, body: { XAVResponse: { Response: response, NoCandidatesIndicator: "" } } };
  const candidates = found.map((e) => ({
    AddressClassification: {
      Code: e.classification,
      Description: ["Unknown", "Commercial", "Residential"][+e.classification]!,
    },
    AddressKeyFormat: {
      AddressLine: e.lines,
      PoliticalDivision2: e.city,
      PoliticalDivision1: e.state,
      PostcodePrimaryLow: e.zip,
      PostcodeExtendedLow: e.plus4,
      Region: `${e.city} ${e.state} ${e.zip}-${e.plus4}`,
      CountryCode: "US",
    },
  }));
  const verdict = found.length === 1 ? { ValidAddressIndicator: "" } : { AmbiguousAddressIndicator: "" };
  const first = candidates[0]!.AddressClassification;
  return {
    status: 200,
    body: { XAVResponse: { Response: response, ...verdict, AddressClassification: first, Candidate: candidates } },
  };
}
