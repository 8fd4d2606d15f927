import type { CustomsValues } from "./customs-form";
import type { DimensionUnit, LabelType, WeightUnit } from "@/lib/carriers/types";
import type { CreateLabelOutput } from "./form-schema";

/*
 * What the create-label form holds and what it sends for rates, without zod: the page loads these with itself and
 * its checks (form-schema.ts) after.
 */

/** What the address inputs hold: text as typed (the schema trims and upper-cases), and the residential toggle. */
export interface AddressValues {
  country_code: string;
  person_name: string;
  company_name: string;
  address_line1: string;
  address_line2: string;
  city: string;
  state_code: string;
  postal_code: string;
  phone_number: string;
  email: string;
  residential: boolean;
}

/** Numbers stay text while typed, so an empty box is "not given" rather than 0 and "2,5" can mean 2.5. */
export interface ParcelValues {
  weight: string;
  weight_unit: WeightUnit;
  length: string;
  width: string;
  height: string;
  dimension_unit: DimensionUnit;
}

export interface CreateLabelValues {
  shipper: AddressValues;
  recipient: AddressValues;
  parcels: ParcelValues[];
  label_type: LabelType;
  reference: string;
  /** Kept while the parcel stays home (the clerk may switch back); checked and sent only across a customs border. */
  customs: CustomsValues;
}

/** Body of `POST /v1/proxy/rates`: every active connection is asked (no carrier_ids). */
export function ratesRequest(values: CreateLabelOutput) {
  return {
    shipper: values.shipper,
    recipient: values.recipient,
    parcels: values.parcels,
    reference: values.reference,
  };
}

/** An address without what no carrier prices by: who to call and whom to hand the parcel to. */
function pricedPart({
  person_name: _name,
  company_name: _company,
  phone_number: _phone,
  email: _email,
  ...priced
}: AddressValues) {
  return priced;
}

/**
 * What decides the rates: a change here makes rates shown before it stale. Names, phone numbers, email, the
 * reference and the label format do not (typing the recipient's phone after rating needs no new rates); every
 * address line does, since carriers may rate a street differently (residential, remote area).
 */
export function ratingKey(values: Pick<CreateLabelValues, "shipper" | "recipient" | "parcels">): string {
  return JSON.stringify([pricedPart(values.shipper), pricedPart(values.recipient), values.parcels]);
}
