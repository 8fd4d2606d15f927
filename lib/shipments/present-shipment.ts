import { wrapBase64 } from "@/lib/labels/base64";
import { presentRate, type RateFields } from "@/lib/rates/present-rate";
import type { Address } from "@/lib/schemas/address";
import { formatTimestamp } from "@/lib/timestamp";
import type { Parcel } from "@/lib/schemas/parcel";
import type { Shipment } from "@/lib/schemas/shipment";
import { proxyTrackingUrl } from "@/lib/trackers/tracking-url";
import type { CarrierMessage } from "@/lib/carriers/types";
import { attemptMessages, labelOnOffer } from "./outcome-unknown";
import { presentDocument, type DocumentFields } from "./present-document";
import type { AddressRow, ParcelRow, ShipmentRow } from "./rows";

/**
 * The one place a Shipment's JSON is built, for stored shipments and proxy purchases alike (docs/api.md,
 * "Resources"): every field present, null when empty. Pure: the caller loads or builds the view. A cancelled
 * shipment's label, and one whose void may have happened, is not handed out (the bytes stay stored); an operation
 * whose answer was lost adds the message that says so (outcome-unknown.ts).
 */

/** What an address, parcel or shipment is made of, with no id when it is not stored (proxy mode). */
export type AddressFields = Omit<AddressRow, "id" | "orgId" | "createdAt"> & { id: string | null };
export type ParcelFields = Omit<ParcelRow, "id" | "orgId" | "shipmentId" | "position"> & { id: string | null };
type ShipmentFields = Pick<
  ShipmentRow,
  | "status"
  | "carrierName"
  | "carrierId"
  | "trackingNumber"
  | "shipmentIdentifier"
  | "selectedRate"
  | "selectedRateId"
  | "service"
  | "services"
  | "options"
  | "payment"
  | "customs"
  | "reference"
  | "labelType"
  | "carrierIds"
  | "meta"
  | "createdAt"
  | "testMode"
  | "messages"
  | "trackerId"
  | "refund"
> & { id: string | null };

/** Everything a Shipment's answer is made of; parcels and rates in `position` order. */
export interface ShipmentView {
  row: ShipmentFields;
  shipper: AddressFields;
  recipient: AddressFields;
  parcels: ParcelFields[];
  rates: RateFields[];
  label: { content: Uint8Array } | null;
  /** The carrier's papers beside the label, in its order: facts only when stored, with their bytes in proxy mode. */
  documents: DocumentFields[];
}

export function presentShipment({ row, shipper, recipient, parcels, rates, label, documents }: ShipmentView): Shipment {
  return {
    id: row.id,
    status: row.status,
    carrier_name: row.carrierName,
    carrier_id: row.carrierId,
    label: label && labelOnOffer(row) ? wrapBase64(label.content) : null,
    documents: documents.map(presentDocument),
    tracking_number: row.trackingNumber,
    shipment_identifier: row.shipmentIdentifier,
    selected_rate: row.selectedRate,
    selected_rate_id: row.selectedRateId,
    rates: rates.map(presentRate),
    tracking_url: row.carrierName && row.trackingNumber ? proxyTrackingUrl(row.carrierName, row.trackingNumber) : null,
    service: row.service,
    shipper: presentAddress(shipper),
    recipient: presentAddress(recipient),
    parcels: parcels.map(presentParcel),
    services: row.services,
    options: row.options,
    payment: row.payment,
    customs: row.customs,
    reference: row.reference,
    label_type: row.labelType,
    carrier_ids: row.carrierIds,
    meta: row.meta,
    created_at: formatTimestamp(row.createdAt),
    test_mode: row.testMode,
    messages: [...row.messages, ...attemptMessages(row)],
    tracker_id: row.trackerId,
    refund: row.refund,
  };
}

/** The purchase and cancel answer: the shipment's fields and `shipment` itself, with the operation's messages. */
export function withShipmentFields({ messages, shipment }: { messages: CarrierMessage[]; shipment: Shipment }) {
  return { ...shipment, messages, shipment };
}

function presentAddress(a: AddressFields): Address {
  return {
    id: a.id,
    postal_code: a.postalCode,
    city: a.city,
    federal_tax_id: a.federalTaxId,
    state_tax_id: a.stateTaxId,
    person_name: a.personName,
    company_name: a.companyName,
    country_code: a.countryCode,
    email: a.email,
    phone_number: a.phoneNumber,
    state_code: a.stateCode,
    suburb: a.suburb,
    residential: a.residential,
    address_line1: a.addressLine1,
    address_line2: a.addressLine2,
    validate_location: a.validateLocation,
    validation: a.validation,
  };
}

function presentParcel(p: ParcelFields): Parcel {
  return {
    id: p.id,
    weight: p.weight,
    weight_unit: p.weightUnit,
    width: p.width,
    height: p.height,
    length: p.length,
    dimension_unit: p.dimensionUnit,
    packaging_type: p.packagingType,
    package_preset: p.packagePreset,
    description: p.description,
    content: p.content,
    is_document: p.isDocument,
  };
}
