import type { components } from "@/lib/carriers/usps/generated/addresses";
import type { Address, AddressVerification } from "@/lib/carriers/types";
import { badResponse, uspsErrors } from "@/lib/carriers/usps/errors";

/**
 * USPS Addresses v3 (addresses.yaml, `GET /addresses/v3/address`): one address per call, US states, territories and
 * military codes. USPS answers the standardized address with its ZIP+4 and the DPV confirmation: Y (the address and
 * any unit confirmed), D (the building is, a unit is missing), S (a unit was given and not confirmed), N (not a
 * delivery point); `business` Y or N. A 404 is "no such address", or "more than one address" (ambiguous). Names and
 * firms are not sent.
 */
type AddressResponse = components["schemas"]["AddressResponse"];

export const USPS_ADDRESS_COUNTRIES = ["US", "PR", "VI", "GU", "AS", "MP"] as const;

// Territories USPS treats as states of a US address.
const TERRITORY = new Set(["PR", "VI", "GU", "AS", "MP"]);
const ZIP = /^(\d{5})(?:-?(\d{4}))?$/;

export function addressQuery(a: Address): string {
  const zip = ZIP.exec(a.postal_code.trim());
  const state = TERRITORY.has(a.country_code) ? a.country_code : a.state_code.trim();
  const q = new URLSearchParams({ streetAddress: a.address_line1.trim() });
  if (a.address_line2?.trim()) q.set("secondaryAddress", a.address_line2.trim());
  if (a.city.trim()) q.set("city", a.city.trim());
  q.set("state", state);
  if (zip) q.set("ZIPCode", zip[1]!);
  if (zip?.[2]) q.set("ZIPPlus4", zip[2]);
  return `/addresses/v3/address?${q}`;
}

export function parseAddressResponse(sent: Address, body: unknown): AddressVerification {
  const res = body as AddressResponse | null;
  const a = res?.address;
  if (!a || typeof a.streetAddress !== "string") throw badResponse("the address");
  const candidate: Address = {
    ...sent,
    address_line1: a.streetAddress,
    address_line2: a.secondaryAddress || null,
    city: a.city ?? sent.city,
    state_code: TERRITORY.has(sent.country_code) ? sent.state_code : (a.state ?? sent.state_code),
    postal_code: a.ZIPPlus4 ? `${a.ZIPCode}-${a.ZIPPlus4}` : (a.ZIPCode ?? sent.postal_code),
  };
  const business = res.additionalInfo?.business;
  const residential = business === "Y" ? false : business === "N" ? true : null;
  switch (res.additionalInfo?.DPVConfirmation) {
    case "Y":
      return { status: "verified", candidates: [candidate], residential };
    case "D":
    case "S":
      // The building is known; its unit is missing or unknown: the caller must say which.
      return { status: "ambiguous", candidates: [candidate], residential };
    default:
      return { status: "not_found", candidates: [], residential: null };
  }
}

/** A 404's verdict: "more than one address was found" is ambiguous, anything else is no such address. */
export function notFoundVerdict(body: unknown): AddressVerification {
  const text = uspsErrors(body)
    .map((e) => e.message)
    .join(" ")
    .concat(" ", String((body as { error?: { message?: unknown } } | null)?.error?.message ?? ""));
  return { status: /more than one address/i.test(text) ? "ambiguous" : "not_found", candidates: [], residential: null };
}
