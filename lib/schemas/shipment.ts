import { z } from "zod";
import { Address } from "./address";
import { Parcel } from "./parcel";
import { Rate } from "./rate";
import { Payment } from "./payment";
import { Message } from "./message";
import { Timestamp, TrackingNumber, optionalText } from "./common";
import { AddressInput } from "./address";
import { ParcelInput } from "./parcel";
import { PaymentInput } from "./payment";
import { LABEL_TYPES } from "@/lib/carriers/types";
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

const object = z.record(z.string(), z.unknown());
const labelType = z.preprocess((v) => (typeof v === "string" ? v.toUpperCase() : v), z.enum(LABEL_TYPES));

export const ShipmentCreate = z
  .object({
    shipper: AddressInput,
    recipient: AddressInput,
    parcels: z.array(ParcelInput).min(1).max(50),
    options: object.default({}),
    carrier_ids: z.array(z.string().trim().min(1)).max(50).default([]),
    /** Restrict rating to these service codes (e.g. `SBX_GROUND`); echoed as the shipment's `services`. */
    services: z.array(z.string().trim().min(1)).max(50).default([]),
    label_type: labelType.default("PDF"),
    reference: optionalText(100),
    customs: object.nullish().transform((v) => v ?? null),
    /** Who pays for the label; stored and used at purchase unless the purchase gives its own. */
    payment: PaymentInput.nullish().transform((v) => v ?? null),
  })
  .meta({ id: "ShipmentCreate" });
export type ShipmentCreate = z.output<typeof ShipmentCreate>;

export const ShipmentPurchase = z
  .object({
    selected_rate_id: z.string().trim().min(1),
    /** Overrides the shipment's `label_type` for this purchase. */
    label_type: labelType.optional(),
    /** Overrides the shipment's `payment` for this purchase (stored with the label). */
    payment: PaymentInput.nullish().transform((v) => v ?? null),
    /** Overrides the shipment's `reference` for this purchase (stored with the label). */
    reference: optionalText(100),
    /**
     * Buy even though an earlier purchase of this shipment lost its answer and the carrier could not tell whether it
     * sold a label (docs/api.md, "When an answer is lost"): a second label may then exist. Without it such a purchase
     * answers 409 purchase_outcome_unknown. No effect on a shipment without such an attempt.
     */
    confirm_rebuy: z.boolean().default(false),
  })
  .meta({ id: "ShipmentPurchase" });
export type ShipmentPurchase = z.output<typeof ShipmentPurchase>;

export const ShipmentWithMessages = z
  .object({ messages: z.array(Message), shipment: Shipment })
  .meta({ id: "ShipmentWithMessages" });

const instant = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(Date.parse(v)), "must be a date or timestamp (ISO 8601)")
  .transform((v) => new Date(v));

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
  format: z
    .preprocess((v) => (typeof v === "string" ? v.toUpperCase() : v), z.enum(LABEL_TYPES))
    .optional()
    .describe("PDF, ZPL or PNG; must match the label bought"),
});
