import type { savedAddresses } from "@/lib/db/schema";
import type { SavedAddress, SavedAddressCreate } from "@/lib/schemas/address-book";
import { formatTimestamp } from "@/lib/timestamp";

export type SavedAddressRow = typeof savedAddresses.$inferSelect;

/** The one presenter of a saved address (docs/api.md, "Addresses"). */
export function presentSavedAddress(r: SavedAddressRow): SavedAddress {
  return {
    id: r.id,
    object_type: "address",
    label: r.label,
    person_name: r.personName,
    company_name: r.companyName,
    address_line1: r.addressLine1,
    address_line2: r.addressLine2,
    city: r.city,
    postal_code: r.postalCode,
    state_code: r.stateCode,
    country_code: r.countryCode,
    residential: r.residential,
    email: r.email,
    phone_number: r.phoneNumber,
    federal_tax_id: r.federalTaxId,
    is_default_sender: r.isDefaultSender,
    created_at: formatTimestamp(r.createdAt),
    updated_at: formatTimestamp(r.updatedAt),
  };
}

type Fields = Omit<SavedAddressCreate, "is_default_sender">;

export function savedAddressValues(a: Fields) {
  return {
    label: a.label,
    personName: a.person_name,
    companyName: a.company_name,
    addressLine1: a.address_line1,
    addressLine2: a.address_line2,
    city: a.city,
    postalCode: a.postal_code,
    stateCode: a.state_code,
    countryCode: a.country_code,
    residential: a.residential,
    email: a.email,
    phoneNumber: a.phone_number,
    federalTaxId: a.federal_tax_id,
    searchText: [a.label, a.person_name, a.company_name, a.address_line1, a.address_line2, a.city, a.postal_code]
      .filter((v): v is string => !!v)
      .join(" ")
      .toLowerCase(),
  };
}

export function fieldsOf(r: SavedAddressRow): Fields {
  const {
    id: _id,
    object_type: _o,
    is_default_sender: _d,
    created_at: _c,
    updated_at: _u,
    ...fields
  } = presentSavedAddress(r);
  return fields;
}
