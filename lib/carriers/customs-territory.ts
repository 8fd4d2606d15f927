/*
 * Customs territories, shared by the API's customs checks, the carriers' requests and the dashboard's form (which
 * loads without zod, so this lives outside lib/schemas).
 */

/**
 * EU member states: one customs territory, so a parcel between two of them declares nothing. (Monaco is inside the
 * French customs territory; special territories such as the Canary Islands share a country code with the mainland
 * and are not told apart here.)
 */
const EU_CUSTOMS_UNION = new Set([
  "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT", "LU", "LV",
  "MC", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
]); // prettier-ignore

/** Territories inside another country's customs territory: Puerto Rico is inside the United States'. */
const CUSTOMS_TERRITORY = new Map([["PR", "US"]]);

const territoryOf = (country: string): string => {
  const c = country.toUpperCase();
  if (EU_CUSTOMS_UNION.has(c)) return "EU";
  return CUSTOMS_TERRITORY.get(c) ?? c;
};

/** Whether a parcel from one country to another crosses a customs border, so it needs a customs declaration. */
export function crossesCustomsBorder(from: string, to: string): boolean {
  return territoryOf(from) !== territoryOf(to);
}
