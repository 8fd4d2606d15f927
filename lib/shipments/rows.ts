import type { addresses, parcels, shipments } from "@/lib/db/schema";
import type { Address as CarrierAddress, Parcel as CarrierParcel } from "@/lib/carriers/types";
import type { RateFields } from "@/lib/rates/present-rate";
import type { AddressInput } from "@/lib/schemas/address";
import type { ParcelInput } from "@/lib/schemas/parcel";
import type { AddressFields, ParcelFields } from "./present-shipment";

/** Conversions between a request's parts, their stored rows and what a carrier call takes. */

export type ShipmentRow = typeof shipments.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;
export type ParcelRow = typeof parcels.$inferSelect;

export function addressFields(a: AddressInput, id: string | null = null): AddressFields {
  return {
    id,
    personName: a.person_name,
    companyName: a.company_name,
    addressLine1: a.address_line1,
    addressLine2: a.address_line2,
    city: a.city,
    postalCode: a.postal_code,
    stateCode: a.state_code,
    countryCode: a.country_code,
    suburb: a.suburb,
    residential: a.residential,
    email: a.email,
    phoneNumber: a.phone_number,
    federalTaxId: a.federal_tax_id,
    stateTaxId: a.state_tax_id,
    validateLocation: a.validate_location,
    validation: a.validation,
  };
}

export function addressValues(a: AddressInput, id: string, orgId: string): typeof addresses.$inferInsert {
  return { ...addressFields(a, id), id, orgId };
}

/** A stored address as a carrier call takes it. */
export function carrierAddress(r: AddressRow): CarrierAddress {
  return {
    person_name: r.personName,
    company_name: r.companyName,
    address_line1: r.addressLine1,
    address_line2: r.addressLine2,
    city: r.city,
    postal_code: r.postalCode,
    state_code: r.stateCode,
    country_code: r.countryCode,
    suburb: r.suburb,
    residential: r.residential,
    email: r.email,
    phone_number: r.phoneNumber,
    federal_tax_id: r.federalTaxId,
    state_tax_id: r.stateTaxId,
  };
}

export function parcelFields(p: ParcelInput, id: string | null = null): ParcelFields {
  return {
    id,
    weight: p.weight,
    weightUnit: p.weight_unit,
    width: p.width,
    height: p.height,
    length: p.length,
    dimensionUnit: p.dimension_unit,
    packagingType: p.packaging_type,
    packagePreset: p.package_preset,
    description: p.description,
    content: p.content,
    isDocument: p.is_document,
  };
}

export function parcelValues(
  p: ParcelInput,
  id: string,
  orgId: string,
  shipmentId: string,
  position: number,
): typeof parcels.$inferInsert {
  return { ...parcelFields(p, id), id, orgId, shipmentId, position };
}

/** A stored parcel as a carrier call takes it. */
export function carrierParcel(r: ParcelRow): CarrierParcel {
  return {
    weight: r.weight,
    weight_unit: r.weightUnit as CarrierParcel["weight_unit"],
    width: r.width,
    height: r.height,
    length: r.length,
    dimension_unit: r.dimensionUnit as CarrierParcel["dimension_unit"],
    packaging_type: r.packagingType,
    package_preset: r.packagePreset,
    description: r.description,
    content: r.content,
    is_document: r.isDocument,
  };
}

export function rateValues(rate: RateFields, orgId: string, shipmentId: string, position: number) {
  return { ...rate, orgId, shipmentId, position };
}

/** `?q=` searches this: reference, tracking number and the recipient's name, company, city and postal code. */
export function searchTextOf(parts: {
  reference: string | null;
  trackingNumber: string | null;
  recipient: Pick<AddressFields, "personName" | "companyName" | "city" | "postalCode">;
}): string {
  const r = parts.recipient;
  return [parts.reference, parts.trackingNumber, r.personName, r.companyName, r.city, r.postalCode]
    .filter((v): v is string => !!v)
    .join(" ")
    .toLowerCase();
}
