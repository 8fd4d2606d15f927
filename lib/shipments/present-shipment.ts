import type { shipments } from "@/lib/db/schema";
import { wrapBase64 } from "@/lib/labels/base64";
import { formatTimestamp } from "@/lib/schemas/common";
import type { Shipment } from "@/lib/schemas/shipment";
import { proxyTrackingUrl } from "@/lib/trackers/tracking-url";
import { addressFromRow, parcelFromRow, rateFromRow, type AddressRow, type ParcelRow, type RateRow } from "./rows";

export type ShipmentRow = typeof shipments.$inferSelect;

/** Everything a stored shipment's answer is made of; parcels and rates in `position` order. */
export interface ShipmentParts {
  row: ShipmentRow;
  shipper: AddressRow;
  recipient: AddressRow;
  parcels: ParcelRow[];
  rates: RateRow[];
  label: { content: Uint8Array } | null;
}

export function presentShipment({ row, shipper, recipient, parcels, rates, label }: ShipmentParts): Shipment {
  return {
    id: row.id,
    status: row.status,
    carrier_name: row.carrierName,
    carrier_id: row.carrierId,
    label: label ? wrapBase64(label.content) : null,
    tracking_number: row.trackingNumber,
    shipment_identifier: row.shipmentIdentifier,
    selected_rate: row.selectedRate,
    selected_rate_id: row.selectedRateId,
    rates: rates.map(rateFromRow),
    tracking_url: row.carrierName && row.trackingNumber ? proxyTrackingUrl(row.carrierName, row.trackingNumber) : null,
    service: row.service,
    shipper: addressFromRow(shipper),
    recipient: addressFromRow(recipient),
    parcels: parcels.map(parcelFromRow),
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
    messages: row.messages,
    tracker_id: row.trackerId,
  };
}

/** `?q=` searches this: reference, tracking number and the recipient's name, city and postal code. */
export function searchTextOf(parts: {
  reference: string | null;
  trackingNumber: string | null;
  recipient: { person_name: string | null; company_name: string | null; city: string; postal_code: string };
}): string {
  const r = parts.recipient;
  return [parts.reference, parts.trackingNumber, r.person_name, r.company_name, r.city, r.postal_code]
    .filter((v): v is string => !!v)
    .join(" ")
    .toLowerCase();
}
