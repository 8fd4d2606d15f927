import { index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { DocumentType, LabelType, RateQuote } from "@/lib/carriers/types";
import { organizations } from "./organizations";
import { bytea, timestamptz } from "./columns";

/**
 * The books of a carrier that runs inside the service (the sandbox; docs/sandbox.md, "What the sandbox
 * remembers"): every label it sold and whether it was voided, per connection (the carrier account). This is the
 * carrier's record, not ours: a sale is written before the carrier answers, so it survives the service dying before
 * the purchase is recorded, and lookups by reference can tell "sold" from "never reached the carrier".
 */
export const carrierLedger = pgTable(
  "carrier_ledger",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    // The account: history, not a foreign key (a deleted connection's sales stay on the books).
    connectionId: text("connection_id").notNull(),
    trackingNumber: text("tracking_number").notNull(),
    shipmentIdentifier: text("shipment_identifier").notNull(),
    reference: text("reference"),
    // Which shipment of ours the label was sold for: a client reference may be shared by several.
    shipmentKey: text("shipment_key"),
    labelType: text("label_type").notNull(),
    label: bytea("label").notNull(),
    // The papers sold with the label (a commercial invoice), base64: a few kilobytes, read back only by a lookup.
    documents: jsonb("documents")
      .$type<{ type: DocumentType; format: LabelType; name: string | null; content: string }[]>()
      .notNull()
      .default([]),
    charge: jsonb("charge").$type<RateQuote>(),
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull(),
    soldAt: timestamptz("sold_at").notNull(),
    voidedAt: timestamptz("voided_at"),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.connectionId, t.trackingNumber] }),
    index("carrier_ledger_reference").on(t.orgId, t.connectionId, t.reference, t.soldAt),
    index("carrier_ledger_sold_at").on(t.soldAt),
  ],
);
