import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";
import type { CarrierMessage, ExtraCharge, RefundStatus } from "@/lib/carriers/types";
import { DOCUMENT_TYPES } from "../../carriers/types";
import { SHIPMENT_STATUSES } from "../../schemas/shipment";
import type { Payment } from "@/lib/schemas/payment";
import type { Rate } from "@/lib/schemas/rate";
import { organizations } from "./organizations";
import { addresses } from "./addresses";
import { trackers } from "./trackers";
import { bytea, newestFirst, timestamptz } from "./columns";

/** A refund as stored: the carrier's word on it, with when it was asked for, last checked and settled (ISO). */
export interface StoredRefund {
  status: RefundStatus;
  reference: string | null;
  requested_at: string;
  checked_at: string | null;
  settled_at: string | null;
}

const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: "number" });

export const shipments = pgTable(
  "shipments",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    status: text("status", { enum: SHIPMENT_STATUSES }).notNull(),
    shipperId: text("shipper_id")
      .notNull()
      .references(() => addresses.id),
    recipientId: text("recipient_id")
      .notNull()
      .references(() => addresses.id),
    carrierIds: jsonb("carrier_ids").$type<string[]>().notNull(),
    services: jsonb("services").$type<string[]>().notNull(),
    options: jsonb("options").$type<Record<string, unknown>>().notNull(),
    customs: jsonb("customs").$type<Record<string, unknown>>(),
    reference: text("reference"),
    labelType: text("label_type").notNull(),
    testMode: boolean("test_mode").notNull(),
    // The latest operation's carrier messages (partial rating failures, purchase warnings).
    messages: jsonb("messages").$type<CarrierMessage[]>().notNull(),
    // Filled by the purchase. The connection id is history, not a foreign key: deleting a connection keeps it.
    carrierConnectionId: text("carrier_connection_id"),
    carrierName: text("carrier_name"),
    carrierId: text("carrier_id"),
    trackingNumber: text("tracking_number"),
    shipmentIdentifier: text("shipment_identifier"),
    selectedRateId: text("selected_rate_id"),
    selectedRate: jsonb("selected_rate").$type<Rate>(),
    service: text("service"),
    payment: jsonb("payment").$type<Payment>(),
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull(),
    trackerId: text("tracker_id").references((): AnyPgColumn => trackers.id, { onDelete: "set null" }),
    // A purchase or cancellation reaching the carrier: claimed and committed before the call so that two calls
    // cannot both reach it; `pending_until` lets a claim whose process died expire.
    pendingOperation: text("pending_operation", { enum: ["purchase", "cancel"] }),
    pendingUntil: timestamptz("pending_until"),
    // What became of a cancelled label's price when the carrier voided it by a refund request (USPS, Canada Post);
    // null when the void needed none. `refund_check_after` is when a pending refund is next asked about (null once
    // settled): the background check's queue, indexed below.
    refund: jsonb("refund").$type<StoredRefund>(),
    refundCheckAfter: timestamptz("refund_check_after"),
    // Lower-cased reference, tracking number and recipient name, city and postal code, for `?q=`.
    searchText: text("search_text").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("shipments_org_created").on(t.orgId, ...newestFirst(t)),
    index("shipments_org_status_created").on(t.orgId, t.status, ...newestFirst(t)),
    index("shipments_org_carrier_created").on(t.orgId, t.carrierName, ...newestFirst(t)),
    index("shipments_org_tracking_number").on(t.orgId, t.trackingNumber),
    index("shipments_org_reference").on(t.orgId, t.reference),
    index("shipments_refund_check_after")
      .on(t.refundCheckAfter)
      .where(sql`${t.refundCheckAfter} is not null`),
  ],
);

export const parcels = pgTable(
  "parcels",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    weight: doublePrecision("weight").notNull(),
    weightUnit: text("weight_unit").notNull(),
    width: doublePrecision("width"),
    height: doublePrecision("height"),
    length: doublePrecision("length"),
    dimensionUnit: text("dimension_unit"),
    packagingType: text("packaging_type"),
    packagePreset: text("package_preset"),
    description: text("description"),
    content: text("content"),
    isDocument: boolean("is_document").notNull(),
  },
  (t) => [index("parcels_shipment").on(t.shipmentId, t.position)],
);

/** The rates quoted when the shipment was created, cheapest first (`position`). */
export const rates = pgTable(
  "rates",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    carrierRef: text("carrier_ref").notNull(),
    carrierName: text("carrier_name").notNull(),
    carrierId: text("carrier_id").notNull(),
    service: text("service").notNull(),
    currency: text("currency").notNull(),
    baseCharge: money("base_charge").notNull(),
    discount: money("discount").notNull(),
    dutiesAndTaxes: money("duties_and_taxes").notNull(),
    totalCharge: money("total_charge").notNull(),
    extraCharges: jsonb("extra_charges").$type<ExtraCharge[]>().notNull(),
    transitDays: integer("transit_days").notNull(),
    meta: jsonb("meta").$type<Rate["meta"]>().notNull(),
    testMode: boolean("test_mode").notNull(),
  },
  (t) => [index("rates_shipment").on(t.shipmentId, t.position)],
);

/** Label files, kept out of the shipment row so lists and status updates never drag the bytes along. */
export const labels = pgTable(
  "labels",
  {
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    type: text("type").notNull(),
    content: bytea("content").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shipmentId] })],
);

/**
 * The papers the carrier sold with the label (a commercial invoice to print and attach): their own rows, like label
 * files, so the shipment row and its lists never carry the bytes. Written in the purchase's recording transaction.
 */
export const shipmentDocuments = pgTable(
  "shipment_documents",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    // The carrier's order.
    position: integer("position").notNull(),
    type: text("type", { enum: DOCUMENT_TYPES }).notNull(),
    format: text("format").notNull(),
    name: text("name"),
    content: bytea("content").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [index("shipment_documents_shipment").on(t.orgId, t.shipmentId, t.position)],
);
