import type { Address, AddressVerification } from "@/lib/carriers/types";
import { answerOf, type DhlAnswer } from "@/lib/carriers/dhl_express/api";

/**
 * MyDHL `GET /address-validate` (type delivery): whether DHL Express delivers to a postal code and city, and how it
 * writes them. It knows places, not streets: a match says the city and postal code belong together, and the street
 * stays as sent. Not strict, so a near miss comes back with what DHL would write instead; no place is no address.
 */
export function addressValidatePath(a: Address): string {
  const q = new URLSearchParams({ type: "delivery", countryCode: a.country_code, strictValidation: "false" });
  if (a.postal_code.trim()) q.set("postalCode", a.postal_code.trim());
  if (a.city.trim()) q.set("cityName", a.city.trim().slice(0, 45));
  return `/address-validate?${q}`;
}

const same = (x: string, y: string) =>
  x.trim().toUpperCase().replace(/\s+/g, " ") === y.trim().toUpperCase().replace(/\s+/g, " ");

export function parseAddressValidate(sent: Address, answer: DhlAnswer): AddressVerification {
  const places = (answerOf(answer).address ?? []) as { countryCode?: string; postalCode?: string; cityName?: string }[];
  const candidates = (Array.isArray(places) ? places : [])
    .filter((p) => typeof p?.postalCode === "string")
    .map((p) => ({ ...sent, postal_code: p.postalCode!, city: p.cityName ?? sent.city }));
  if (candidates.length === 0) return { status: "not_found", candidates: [], residential: null };
  const exact = candidates.find((c) => same(c.city, sent.city) && same(c.postal_code, sent.postal_code));
  if (exact) return { status: "verified", candidates: [exact], residential: null };
  if (candidates.length === 1) return { status: "corrected", candidates, residential: null };
  return { status: "ambiguous", candidates, residential: null };
}
