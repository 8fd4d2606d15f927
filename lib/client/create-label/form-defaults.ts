import type { Address } from "@/lib/schemas/address";
import { defaultCustoms } from "./customs-form";
import type { AddressValues, CreateLabelValues } from "./form-schema";

function emptyAddress(countryCode = "US"): AddressValues {
  return {
    country_code: countryCode,
    person_name: "",
    company_name: "",
    address_line1: "",
    address_line2: "",
    city: "",
    state_code: "",
    postal_code: "",
    phone_number: "",
    email: "",
    residential: false,
  };
}

/** A stored address (the API's Address, e.g. the user's last ship-from) as form values. */
function addressValues(address: Partial<Address>): AddressValues {
  const empty = emptyAddress(address.country_code || "US");
  const text = (key: Exclude<keyof AddressValues, "residential">) => address[key] ?? empty[key];
  return {
    country_code: text("country_code"),
    person_name: text("person_name"),
    company_name: text("company_name"),
    address_line1: text("address_line1"),
    address_line2: text("address_line2"),
    city: text("city"),
    state_code: text("state_code"),
    postal_code: text("postal_code"),
    phone_number: text("phone_number"),
    email: text("email"),
    residential: address.residential ?? false,
  };
}

/**
 * What the page prefills. `shipFrom` is the ship-from this person used last in the organization, else the
 * organization's default ship-from (startingShipFrom, passed by the server; null when there is neither); `signer` is
 * who certifies a customs declaration, the signed-in person's name.
 */
export interface CreateLabelDefaults {
  shipFrom: Partial<Address> | null;
  signer?: string | null;
}

export function defaultValues(defaults: CreateLabelDefaults): CreateLabelValues {
  const shipper = defaults.shipFrom ? addressValues(defaults.shipFrom) : emptyAddress();
  return {
    shipper,
    // Most parcels stay in the ship-from's country.
    recipient: emptyAddress(shipper.country_code),
    parcels: [{ weight: "", weight_unit: "LB", length: "", width: "", height: "", dimension_unit: "IN" }],
    label_type: "PDF",
    reference: "",
    customs: defaultCustoms(defaults.signer),
  };
}
