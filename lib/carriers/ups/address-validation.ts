import type { components } from "@/lib/carriers/ups/generated/address-validation";
import type { Address, AddressVerification, AdapterMessage } from "@/lib/carriers/types";
import { alertMessages, asArray, badResponse } from "@/lib/carriers/ups/errors";

/**
 * UPS Address Validation, street level (AddressValidation.yaml): one address per call, US and Puerto Rico only,
 * request option 3 (validation and classification: commercial "1", residential "2", unknown "0"). Names never leave:
 * the check needs the street, city, state and ZIP, not who lives there.
 */
type XavRequest = components["schemas"]["XAVRequestWrapper"];
type Candidate = components["schemas"]["XAVResponse_Candidate"];

export const XAV_PATH = "/api/addressvalidation/v2/3?maximumcandidatelistsize=5";
export const UPS_ADDRESS_COUNTRIES = ["US", "PR"] as const;

const ZIP = /^(\d{5})(?:-?(\d{4}))?$/;

export function buildXavRequest(a: Address): XavRequest {
  const zip = ZIP.exec(a.postal_code.trim());
  const lines = [a.address_line1, a.address_line2].filter((l): l is string => !!l && l.trim() !== "");
  return {
    XAVRequest: {
      AddressKeyFormat: {
        AddressLine: lines.map((l) => l.trim().slice(0, 100)),
        PoliticalDivision2: a.city.trim().slice(0, 30),
        PoliticalDivision1: a.state_code.trim().slice(0, 30),
        PostcodePrimaryLow: (zip?.[1] ?? a.postal_code.trim()).slice(0, 10),
        ...(zip?.[2] ? { PostcodeExtendedLow: zip[2] } : {}),
        CountryCode: a.country_code,
      },
    },
  };
}

const residentialOf = (code: unknown): boolean | null => (code === "2" ? true : code === "1" ? false : null);

function candidateAddress(sent: Address, c: Candidate): Address {
  const k = c.AddressKeyFormat;
  const lines = asArray(k.AddressLine).filter((l): l is string => typeof l === "string");
  const postal = k.PostcodeExtendedLow
    ? `${k.PostcodePrimaryLow}-${k.PostcodeExtendedLow}`
    : (k.PostcodePrimaryLow ?? "");
  return {
    ...sent,
    address_line1: lines[0] ?? "",
    address_line2: lines.slice(1).join(" ") || null,
    city: k.PoliticalDivision2 ?? "",
    state_code: k.PoliticalDivision1 ?? "",
    postal_code: postal,
    country_code: k.CountryCode,
  };
}

export function parseXavResponse(
  sent: Address,
  body: unknown,
): { data: AddressVerification; messages: AdapterMessage[] } {
  const xav = (body as { XAVResponse?: components["schemas"]["XAVResponse"] } | null)?.XAVResponse;
  if (!xav || typeof xav !== "object") throw badResponse("an XAVResponse");
  const messages = alertMessages(xav.Response?.Alert);
  const candidates = asArray(xav.Candidate) as Candidate[];
  if (xav.NoCandidatesIndicator !== undefined || candidates.length === 0) {
    return { data: { status: "not_found", candidates: [], residential: null }, messages };
  }
  const addresses = candidates.map((c) => candidateAddress(sent, c));
  if (xav.AmbiguousAddressIndicator !== undefined || xav.ValidAddressIndicator === undefined) {
    return { data: { status: "ambiguous", candidates: addresses, residential: null }, messages };
  }
  const residential = residentialOf(candidates[0]!.AddressClassification?.Code ?? xav.AddressClassification?.Code);
  // UPS says "valid" for an address it also rewrote; the domain tells verified from corrected by comparing.
  return { data: { status: "verified", candidates: addresses.slice(0, 1), residential }, messages };
}
