import { z } from "zod";
import { Address } from "./address";
import { Parcel } from "./parcel";
import { Rate } from "./rate";
import { Payment } from "./payment";
import { Message } from "./message";
import {
  CarrierIds,
  ServiceCodes,
  Timestamp,
  TrackingNumber,
  blankIsNull,
  boundedObject,
  labelType,
  optionalText,
  orEmpty,
} from "./common";
import { RatingAddressInput } from "./address";
import { ParcelInput } from "./parcel";
import { PaymentInput } from "./payment";
import { PageQuery, pageOf } from "./pagination";

export const SHIPMENT_STATUSES = [
  "created",
  "purchased",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "needs_attention",
  "delivery_failed",
  "cancelled",
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const Shipment = z
  .object({
    id: z.string().nullable(),
    status: z.enum(SHIPMENT_STATUSES),
    carrier_name: z.string().nullable(),
    carrier_id: z.string().nullable(),
    label: z.string().nullable(),
    tracking_number: z.string().nullable(),
    shipment_identifier: z.string().nullable(),
    selected_rate: Rate.nullable(),
    selected_rate_id: z.string().nullable(),
    rates: z.array(Rate),
    tracking_url: z.string().nullable(),
    service: z.string().nullable(),
    shipper: Address,
    recipient: Address,
    parcels: z.array(Parcel),
    services: z.array(z.string()),
    options: z.record(z.string(), z.unknown()),
    payment: Payment.nullable(),
    customs: z.record(z.string(), z.unknown()).nullable(),
    reference: z.string().nullable(),
    label_type: z.string(),
    carrier_ids: z.array(z.string()),
    meta: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    test_mode: z.boolean(),
    messages: z.array(Message),
    tracker_id: z.string().nullable(),
  })
  .meta({ id: "Shipment" });
export type Shipment = z.output<typeof Shipment>;

export const ShipmentCreate = z
  .object({
    shipper: RatingAddressInput,
    recipient: RatingAddressInput,
    parcels: z.array(ParcelInput).min(1).max(50),
    options: orEmpty(boundedObject, () => ({})),
    carrier_ids: CarrierIds,
    /** Restrict rating to these service codes (e.g. `SBX_GROUND`); echoed as the shipment's `services`. */
    services: ServiceCodes,
    label_type: blankIsNull(labelType).transform((v) => v ?? "PDF"),
    reference: optionalText(100),
    customs: boundedObject.nullish().transform((v) => v ?? null),
  })
  .meta({ id: "ShipmentCreate" });
export type ShipmentCreate = z.output<typeof ShipmentCreate>;

export const ShipmentPurchase = z
  .object({
    selected_rate_id: z.string().trim().min(1),
    /** Overrides the shipment's `label_type` for this purchase. */
    label_type: labelType.optional(),
    payment: PaymentInput.nullish().transform((v) => v ?? null),
  })
  .meta({ id: "ShipmentPurchase" });
export type ShipmentPurchase = z.output<typeof ShipmentPurchase>;

export const ShipmentWithMessages = z
  .object({ messages: z.array(Message), shipment: Shipment })
  .meta({ id: "ShipmentWithMessages" });

// Four-digit years only (0001–9999): JavaScript also reads -200000 or +275760, which a timestamptz column cannot
// be compared with, and year 0 does not exist in Postgres's calendar.
const FIRST_INSTANT = new Date("0001-01-01T00:00:00Z").getTime();
const LAST_INSTANT = new Date("9999-12-31T23:59:59.999Z").getTime();

const instant = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), "must be a date or timestamp (ISO 8601)")
  .transform((v) => new Date(v))
  .refine(
    (d) => d.getTime() >= FIRST_INSTANT && d.getTime() <= LAST_INSTANT,
    "must be a date between the years 0001 and 9999",
  );

export const ShipmentList = pageOf(Shipment, "ShipmentList");

export const ShipmentListQuery = PageQuery.extend({
  status: z.enum(SHIPMENT_STATUSES).optional().describe("Only shipments in this status"),
  carrier_name: z.string().trim().min(1).max(50).optional().describe("Carrier of the bought label"),
  tracking_number: TrackingNumber.optional().describe("Exact tracking number"),
  reference: z.string().trim().min(1).max(100).optional().describe("Exact reference"),
  created_after: instant.optional().describe("ISO 8601 date or timestamp (inclusive)"),
  created_before: instant.optional().describe("ISO 8601 date or timestamp (exclusive)"),
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("Free text over reference, tracking number, recipient name, company, city and postal code"),
});
export type ShipmentListQuery = z.output<typeof ShipmentListQuery>;

export const LabelQuery = z.object({
  format: labelType.optional().describe("PDF, ZPL or PNG; must match the label bought"),
});
