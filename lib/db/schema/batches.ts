import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { newestFirst, timestamptz } from "./columns";
import { BATCH_ROW_STATES, BATCH_STATES } from "../../schemas/batch-states";

/** How one row's rate is picked among its rates. */
export interface StoredRatePick {
  kind: "cheapest" | "fastest" | "fixed";
  carrier_id: string | null;
  service: string | null;
}

/** A rules policy's rule: every condition given must match the row for its pick to apply. */
export interface StoredRateRule {
  weight: { min: number | null; max: number | null; unit: "KG" | "LB" | "OZ" | "G" } | null;
  destination: { country_code: string; state_code: string | null; postal_prefix: string | null } | null;
  value: { min: number | null; max: number | null; currency: string } | null;
  pick: StoredRatePick;
}

/**
 * How a batch picks each row's rate; a price cap holds rows above it for a decision. `rules` and `fallback` are for
 * kind "rules" (absent in batches stored before rules existed).
 */
export interface StoredRatePolicy {
  kind: "cheapest" | "fastest" | "fixed" | "rules";
  carrier_id: string | null;
  service: string | null;
  rules?: StoredRateRule[];
  fallback?: StoredRatePick | null;
  price_cap: { amount: number; currency: string } | null;
}

/**
 * The rate the dry run picked for a row: a stored shipment's rate (its id is the one bought), or a quote the row's
 * shipment is stored with at purchase. The rates table's fields (lib/rates/present-rate.ts, RateFields).
 */
export type StoredRowRate = Record<string, unknown> & {
  id: string;
  carrierName: string;
  carrierId: string;
  carrierRef: string;
  service: string;
  totalCharge: number;
  currency: string;
  transitDays: number;
  testMode: boolean;
};

/** What the dry run found: the total and the count per carrier and service of the rows it rated. */
export interface StoredBatchSummary {
  totals: { currency: string; amount: number }[];
  services: {
    carrier_id: string;
    carrier_name: string;
    service: string;
    count: number;
    currency: string;
    amount: number;
  }[];
}

export const batches = pgTable(
  "batches",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    state: text("state", { enum: BATCH_STATES }).notNull(),
    // "csv" (rows are CSV lines, shipments created at purchase) or "shipments" (rows are stored shipments).
    source: text("source", { enum: ["csv", "shipments"] }).notNull(),
    // "purchase" (rows are checked, priced and bought) or "print" (stored shipments already bought, one print run:
    // stored completed, its rows purchased, and never worked by the runner).
    kind: text("kind", { enum: ["purchase", "print"] })
      .notNull()
      .default("purchase"),
    filename: text("filename"),
    ratePolicy: jsonb("rate_policy").$type<StoredRatePolicy>().notNull(),
    // What every CSV row shares: the ship-from address, label type, options (the rows give the rest).
    defaults: jsonb("defaults").$type<Record<string, unknown>>().notNull(),
    // The CSV column each field was read from (field → header), as the request gave it.
    mapping: jsonb("mapping").$type<Record<string, string>>().notNull(),
    rowCount: integer("row_count").notNull(),
    invalidCount: integer("invalid_count").notNull().default(0),
    summary: jsonb("summary").$type<StoredBatchSummary>(),
    // The mode of the connections the rows are rated and bought by (every one in test mode: true), set when the
    // batch is stored: its webhook events carry it even when no row was ever rated.
    testMode: boolean("test_mode").notNull().default(true),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
    confirmedAt: timestamptz("confirmed_at"),
    finishedAt: timestamptz("finished_at"),
    // When a round last started on the batch: the runners take the batch worked least recently first (never worked
    // first), so a long batch cannot keep newer ones, another organization's, from their turn.
    lastWorkedAt: timestamptz("last_worked_at"),
  },
  (t) => [
    index("batches_org_created").on(t.orgId, ...newestFirst(t)),
    index("batches_active")
      .on(t.state)
      .where(sql`${t.state} in ('validating', 'purchasing')`),
  ],
);

export const batchRows = pgTable(
  "batch_rows",
  {
    batchId: text("batch_id")
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    // The CSV line the row was read from (the header is line 1), or its position in the list of shipment ids.
    line: integer("line").notNull(),
    orgId: text("org_id").notNull(),
    // The row as given: the CSV record by header (exported again by failed.csv), or { shipment_id }.
    input: jsonb("input").$type<Record<string, string>>().notNull(),
    // The shipment to store and buy, as the dry run validated it (a ShipmentCreate); null for stored shipments.
    request: jsonb("request").$type<Record<string, unknown>>(),
    state: text("state", { enum: BATCH_ROW_STATES }).notNull(),
    // Why a row is in needs_decision: "price_cap" (its rate is above the policy's cap; bought only once approved).
    held: text("held"),
    rate: jsonb("rate").$type<StoredRowRate>(),
    errorCode: text("error_code"),
    errorColumn: text("error_column"),
    errorMessage: text("error_message"),
    carrierText: text("carrier_text"),
    // Allotted when the row is stored: the row creates this shipment once and buys it through its claim, so a retry,
    // a crash or a second click finds the same shipment and never a second label.
    shipmentId: text("shipment_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    // A worker's claim on the row (SKIP LOCKED, like the tracker refresh): expired, another worker takes it over.
    leaseUntil: timestamptz("lease_until"),
    // Claims made (each adds one: the fencing token its outcome is written with), and of them those given back
    // untried; their difference is the tries that ran, which decide when a row that keeps failing fails for good.
    attempts: integer("attempts").notNull().default(0),
    givenBack: integer("given_back").notNull().default(0),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.line] }),
    // A worker's claim asks for the first row of one state in CSV order (lib/batches/run-batch.ts).
    index("batch_rows_state_line").on(t.batchId, t.state, t.line),
    uniqueIndex("batch_rows_idempotency_key").on(t.idempotencyKey),
    index("batch_rows_shipment").on(t.shipmentId),
    // Rows being bought, by when their lease runs out: the runners find a cancelled batch's rows whose buyer died
    // (lib/batches/manage-batch.ts, activeBatches) without reading every row.
    index("batch_rows_purchasing_lease")
      .on(t.leaseUntil)
      .where(sql`${t.state} = 'purchasing'`),
  ],
);

/**
 * The organization's saved CSV column mapping (field → CSV header): the dashboard's mapping step starts from it, so a
 * shop's export is mapped once. One per organization, replaced whole by PUT /v1/batches/mapping.
 */
export const batchMappings = pgTable("batch_mappings", {
  orgId: text("org_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  mapping: jsonb("mapping").$type<Record<string, string>>().notNull(),
  updatedAt: timestamptz("updated_at").notNull().defaultNow(),
});
