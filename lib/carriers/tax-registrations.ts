import type { Address, Customs, TaxParty, TaxRegistration } from "@/lib/carriers/types";

/**
 * A party's tax registrations as an adapter sends them: those the customs declaration lists for it, then the
 * address's `federal_tax_id` (the field clients used before registrations were typed), unless a listed one has the
 * same number. A US federal id is an EIN; elsewhere the field named no kind, so it is "other".
 */
export function taxRegistrations(
  req: { shipper: Address; recipient: Address; customs: Customs | null },
  party: TaxParty,
): TaxRegistration[] {
  const address = req[party];
  const declared = req.customs?.tax_registrations?.[party] ?? [];
  const legacy = address.federal_tax_id?.trim();
  if (!legacy || declared.some((r) => sameNumber(r.number, legacy))) return declared;
  const type = address.country_code.toUpperCase() === "US" ? "ein" : "other";
  return [...declared, { type, number: legacy, issuing_country: null }];
}

const sameNumber = (a: string, b: string) => a.replace(/[\s.\-/]/g, "") === b.replace(/[\s.\-/]/g, "");
