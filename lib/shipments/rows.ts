import type { addresses, parcels, rates } from "@/lib/db/schema";
import type { Address, AddressInput } from "@/lib/schemas/address";
import { presentAddress } from "@/lib/schemas/address";
import type { Parcel, ParcelInput } from "@/lib/schemas/parcel";
import { presentParcel } from "@/lib/schemas/parcel";
import type { Rate } from "@/lib/schemas/rate";

/** Conversions between the stored rows of a shipment's parts and the contract's shapes, in both directions. */

export type AddressRow = typeof addresses.$inferSelect;
export type ParcelRow = typeof parcels.$inferSelect;
export type RateRow = typeof rates.$inferSelect;

export function addressValues(a: AddressInput, id: string, orgId: string): typeof addresses.$inferInsert {
  return {
    id,
    orgId,
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

/** The stored address in the input's shape (what a carrier call needs) … */
export function addressInputFromRow(r: AddressRow): AddressInput {
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
    validate_location: r.validateLocation,
    validation: r.validation,
  };
}

/** … and in the output's (every field, with its adr_ id). */
export const addressFromRow = (r: AddressRow): Address => presentAddress(addressInputFromRow(r), r.id);

export function parcelValues(
  p: ParcelInput,
  id: string,
  orgId: string,
  shipmentId: string,
  position: number,
): typeof parcels.$inferInsert {
  return {
    id,
    orgId,
    shipmentId,
    position,
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

export function parcelInputFromRow(r: ParcelRow): ParcelInput {
  return {
    weight: r.weight,
    weight_unit: r.weightUnit as ParcelInput["weight_unit"],
    width: r.width,
    height: r.height,
    length: r.length,
    dimension_unit: r.dimensionUnit as ParcelInput["dimension_unit"],
    packaging_type: r.packagingType,
    package_preset: r.packagePreset,
    description: r.description,
    content: r.content,
    is_document: r.isDocument,
  };
}

export const parcelFromRow = (r: ParcelRow): Parcel => presentParcel(parcelInputFromRow(r), r.id);

export function rateValues(rate: Rate, orgId: string, shipmentId: string, position: number): typeof rates.$inferInsert {
  return {
    id: rate.id,
    orgId,
    shipmentId,
    position,
    carrierRef: rate.carrier_ref,
    carrierName: rate.carrier_name,
    carrierId: rate.carrier_id,
    service: rate.service,
    currency: rate.currency,
    baseCharge: rate.base_charge,
    discount: rate.discount,
    dutiesAndTaxes: rate.duties_and_taxes,
    totalCharge: rate.total_charge,
    extraCharges: rate.extra_charges,
    transitDays: rate.transit_days,
    meta: rate.meta,
    testMode: rate.test_mode,
  };
}

export function rateFromRow(r: RateRow): Rate {
  return {
    id: r.id,
    carrier_name: r.carrierName,
    carrier_id: r.carrierId,
    currency: r.currency,
    service: r.service,
    discount: r.discount,
    base_charge: r.baseCharge,
    total_charge: r.totalCharge,
    duties_and_taxes: r.dutiesAndTaxes,
    transit_days: r.transitDays,
    extra_charges: r.extraCharges,
    meta: r.meta,
    carrier_ref: r.carrierRef,
    test_mode: r.testMode,
  };
}
