import { z } from "zod";
import { ShippingOptions } from "./options";
import { Address } from "./address";
import { Parcel } from "./parcel";
import { Rate } from "./rate";
import { Payment } from "./payment";
import { Message } from "./message";
import { Customs, CustomsInput } from "./customs";
import { ShipmentDocument } from "./shipment-document";
import {
  CarrierIds,
  ServiceCodes,
  Timestamp,
  TrackingNumber,
  blankIsNull,
  labelType,
  optionalText,
  orEmpty,
} from "./common";
import { RatingAddressInput } from "./address";
import { ParcelInput } from "./parcel";
import { PaymentInput } from "./payment";
import { PageQuery, pageOf } from "./pagination";
import { CarrierIdFilter, boolQuery } from "./params";
import { instant } from "./instant";
import { statusFilter } from "./status-filter";
import { REFUND_STATUSES } from "@/lib/carriers/types";

export const SHIPMENT_STATUSES = [
  "created",
  "purchased",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "needs_attention",
  "delivery_failed",
  "lost",
  "cancelled",
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
/** The status as answered (other API versions rename it: lib/versions.ts). */
export const ShipmentStatusSchema = z.enum(SHIPMENT_STATUSES);
export const ShipmentStatusFilter = statusFilter(SHIPMENT_STATUSES);

/**
 * What became of a cancelled label's price where the carrier voided it by a refund request (USPS once the label is
 * manifested, Canada Post once transmitted): `pending` until the carrier settles it as `refunded` or `refused`.
 * Null on a label voided before it was billed, and on every shipment not cancelled.
 */
const ShipmentRefund = z
  .object({
    status: z.enum(REFUND_STATUSES),
    /** The carrier's id of the refund request (USPS dispute id, Canada Post service ticket). */
    reference: z.string().nullable(),
    requested_at: Timestamp,
    /** When the carrier was last asked about it. */
    checked_at: Timestamp.nullable(),
    settled_at: Timestamp.nullable(),
  })
  .meta({ id: "ShipmentRefund" });

export const Shipment = z
  .object({
    id: z.string().nullable(),
    status: ShipmentStatusSchema,
    carrier_name: z.string().nullable(),
    carrier_id: z.string().nullable(),
    label: z.string().nullable(),
    /** The carrier's papers to print beside the label (a commercial invoice); each downloadable by id. */
    documents: z.array(ShipmentDocument),
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
    customs: Customs.nullable(),
    reference: z.string().nullable(),
    label_type: z.string(),
    carrier_ids: z.array(z.string()),
    meta: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    test_mode: z.boolean(),
    messages: z.array(Message),
    tracker_id: z.string().nullable(),
    refund: ShipmentRefund.nullable(),
  })
  .meta({ id: "Shipment" });
export type Shipment = z.output<typeof Shipment>;

export const ShipmentCreate = z
  .object({
    shipper: RatingAddressInput,
    recipient: RatingAddressInput,
    parcels: z.array(ParcelInput).min(1).max(50),
    options: orEmpty(ShippingOptions, () => ({})),
    carrier_ids: CarrierIds,
    /** Restrict rating to these service codes (e.g. `SBX_GROUND`); echoed as the shipment's `services`. */
    services: ServiceCodes,
    label_type: blankIsNull(labelType).transform((v) => v ?? "PDF"),
    reference: optionalText(100),
    /** The customs declaration; required to buy a label that crosses a customs border (docs/api.md, "Customs"). */
    customs: CustomsInput.nullish().transform((v) => v ?? null),
    /** Who pays for the label; stored and used at purchase unless the purchase gives its own. */
    payment: PaymentInput.nullish().transform((v) => v ?? null),
    /**
     * docs/api.md, "Addresses": true checks both addresses (offline, then with a connected carrier that verifies them)
     * and refuses an invalid one with 422 address_invalid; false ships anyway, and the offline checks' objections are
     * recorded in the audit log. Absent: as false.
     */
    validate: z
      .boolean()
      .nullish()
      .transform((v) => v ?? null),
  })
  .meta({ id: "ShipmentCreate" });
export type ShipmentCreate = z.output<typeof ShipmentCreate>;

export const ShipmentPurchase = z
  .object({
    selected_rate_id: z.string().trim().min(1).max(100),
    /** Overrides the shipment's `label_type` for this purchase (null: the shipment's). */
    label_type: labelType.nullish().transform((v) => v ?? null),
    /** Overrides the shipment's `payment` for this purchase (stored with the label). */
    payment: PaymentInput.nullish().transform((v) => v ?? null),
    /** Overrides the shipment's `reference` for this purchase (stored with the label). */
    reference: optionalText(100),
    /** Overrides the shipment's `customs` for this purchase (stored with the label). */
    customs: CustomsInput.nullish().transform((v) => v ?? null),
    /**
     * Buy even though an earlier purchase of this shipment lost its answer and the carrier could not tell whether it
     * sold a label (docs/api.md, "When an answer is lost"): a second label may then exist. Without it such a purchase
     * answers 409 purchase_outcome_unknown. No effect on a shipment without such an attempt.
     */
    confirm_rebuy: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
  })
  .meta({ id: "ShipmentPurchase" });
export type ShipmentPurchase = z.output<typeof ShipmentPurchase>;

/**
 * The purchase and cancel answer (docs/api.md, "Managed mode: shipments"): the Shipment's own fields at the top
 * level, as 2021.7 clients decode it, and the same Shipment under `shipment` beside `messages`, as the interface
 * specifies. `messages` are this operation's carrier messages.
 */
export const ShipmentWithMessages = Shipment.extend({ shipment: Shipment }).meta({ id: "ShipmentWithMessages" });

export const ShipmentList = pageOf(Shipment, "ShipmentList");

export const ShipmentListQuery = PageQuery.extend({
  status: ShipmentStatusFilter.optional().describe("Only shipments in one of these statuses (comma-separated)"),
  carrier_name: z.string().trim().min(1).max(50).optional().describe("Carrier of the bought label"),
  carrier_id: CarrierIdFilter.optional().describe("Connection of the bought label (its carrier_id or car_ id)"),
  service: z.string().trim().min(1).max(100).optional().describe("Service of the bought label (e.g. SBX_GROUND)"),
  test_mode: boolQuery.optional().describe("Only test (true) or live (false) shipments"),
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
}).strict();
export type ShipmentListQuery = z.output<typeof ShipmentListQuery>;

/** `layout`: the label as bought, or laid at actual size on the top half of a Letter or A4 sheet (PDF and PNG only). */
const LABEL_LAYOUTS = ["label", "letter", "a4"] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

export const LabelQuery = z
  .object({
    format: labelType.optional().describe("PDF, ZPL or PNG; must match the label bought"),
    layout: z
      .preprocess((v) => (typeof v === "string" ? v.toLowerCase() : v), z.enum(LABEL_LAYOUTS))
      .default("label")
      .describe(
        "label: the file as bought (default). letter or a4: a PDF of that paper with the label turned onto the top " +
          "half at 100% scale and a cut line (PDF and PNG labels only; 400 for ZPL)",
      ),
  })
  .strict();
