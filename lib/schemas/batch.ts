import { z } from "zod";
import { BATCH_ROW_STATES, BATCH_STATES } from "./batch-states";
import { AddressInput } from "./address";
import { Timestamp, labelType } from "./common";
import { ShippingOptions } from "./options";
import { PageQuery, pageOf } from "./pagination";
import { statusFilter } from "./status-filter";

/** The most rows one batch takes (docs/api.md, "Batches"). */
export const MAX_BATCH_ROWS = 10_000;

/**
 * The fields a CSV row can fill, by name: a mapping names the CSV header each is read from. Without a mapping, a
 * header spelt as the field (or its last part: `postal_code`, `weight`) is read for it.
 */
export const BATCH_FIELDS = [
  "reference",
  "recipient.person_name",
  "recipient.company_name",
  "recipient.address_line1",
  "recipient.address_line2",
  "recipient.city",
  "recipient.state_code",
  "recipient.postal_code",
  "recipient.country_code",
  "recipient.phone_number",
  "recipient.email",
  "recipient.residential",
  "parcel.weight",
  "parcel.weight_unit",
  "parcel.length",
  "parcel.width",
  "parcel.height",
  "parcel.dimension_unit",
  "carrier_id",
  "service",
  "customs.description",
  "customs.quantity",
  "customs.value",
  "customs.currency",
  "customs.hs_code",
  "customs.origin_country",
] as const;
export type BatchField = (typeof BATCH_FIELDS)[number];

const money = z.number().positive().max(1_000_000);
const currency = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, "must be a three-letter currency code")
  .transform((v) => v.toUpperCase());

/** docs/api.md, "Batches": how each row's rate is picked; rows above the cap wait for a decision. */
const RatePolicy = z
  .object({
    kind: z.enum(["cheapest", "fastest", "fixed"]).default("cheapest"),
    /** `fixed`: the connection's carrier_id and its service code (a row's own columns win over them). */
    carrier_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullish()
      .transform((v) => v ?? null),
    service: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullish()
      .transform((v) => v ?? null),
    price_cap: z
      .object({ amount: money, currency })
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((p, ctx) => {
    if (p.kind === "fixed" && !p.service) {
      ctx.addIssue({ code: "custom", path: ["service"], message: "is required for a fixed policy" });
    }
  })
  .meta({ id: "BatchRatePolicy" });

/** Field → CSV header: which column of the file each field is read from (see BATCH_FIELDS). */
const ColumnMapping = z.partialRecord(z.enum(BATCH_FIELDS), z.string().trim().min(1).max(200));

/** GET and PUT /v1/batches/mapping: the organization's saved column mapping, the dashboard's starting point. */
export const BatchMapping = z
  .object({
    mapping: ColumnMapping.transform((v) => v as Partial<Record<BatchField, string>>),
    updated_at: Timestamp.nullable().describe("When it was last saved; null before the first save"),
  })
  .meta({ id: "BatchMapping" });
export type BatchMapping = z.output<typeof BatchMapping>;
export const BatchMappingPut = z
  .object({ mapping: ColumnMapping.transform((v) => v as Partial<Record<BatchField, string>>) })
  .strict()
  .meta({ id: "BatchMappingPut" });
export type BatchMappingPut = z.output<typeof BatchMappingPut>;

const shipmentId = z
  .string()
  .trim()
  .regex(/^shp_[0-9a-f]{32}$/, "must be a shipment id");

/**
 * POST /v1/batches: rows from CSV (the `csv` text here, or a file uploaded as a form or `text/csv`), or stored
 * shipments by id. A CSV row is a recipient and a parcel; what every row shares (the ship-from) is given here.
 */
export const BatchCreate = z
  .object({
    csv: z
      .string()
      .max(16 * 1024 * 1024)
      .nullish()
      .transform((v) => v ?? null),
    shipment_ids: z
      .array(shipmentId)
      .min(1)
      .max(MAX_BATCH_ROWS)
      .nullish()
      .transform((v) => v ?? null),
    filename: z
      .string()
      .trim()
      .max(200)
      .nullish()
      .transform((v) => v ?? null),
    /** Field → CSV header (see BATCH_FIELDS); a header named as the field needs no entry. */
    mapping: ColumnMapping.nullish().transform((v) => (v ?? {}) as Partial<Record<BatchField, string>>),
    /** The ship-from address of every CSV row. */
    shipper: AddressInput.nullish().transform((v) => v ?? null),
    label_type: labelType.nullish().transform((v) => v ?? "PDF"),
    options: ShippingOptions.nullish().transform((v) => v ?? {}),
    rate_policy: RatePolicy.nullish().transform((v) => v ?? RatePolicy.parse({})),
  })
  .superRefine((b, ctx) => {
    if (b.shipment_ids !== null && b.csv !== null) {
      ctx.addIssue({ code: "custom", path: ["shipment_ids"], message: "give either CSV rows or shipment ids" });
    }
  })
  .meta({ id: "BatchCreate" });
export type BatchCreate = z.output<typeof BatchCreate>;

const Money = z.object({ currency: z.string(), amount: z.number() });

const BatchRowSchema = z
  .object({
    line: z.number().int(),
    state: z.enum(BATCH_ROW_STATES),
    /** Why a rated row waits: `price_cap` (above the policy's cap; bought only when the purchase includes them). */
    held: z.string().nullable(),
    reference: z.string().nullable(),
    shipment_id: z.string().nullable(),
    rate: z
      .object({
        carrier_id: z.string(),
        carrier_name: z.string(),
        service: z.string(),
        amount: z.number(),
        currency: z.string(),
        transit_days: z.number().int(),
      })
      .nullable(),
    error: z
      .object({
        code: z.string(),
        /** The CSV header the problem is in, when one is. */
        column: z.string().nullable(),
        message: z.string(),
        /** The carrier's own words, when a carrier refused. */
        carrier_text: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: "BatchRow" });
export type BatchRowOut = z.output<typeof BatchRowSchema>;

export const Batch = z
  .object({
    id: z.string(),
    state: z.enum(BATCH_STATES),
    source: z.enum(["csv", "shipments"]),
    filename: z.string().nullable(),
    rate_policy: z.object({
      kind: z.enum(["cheapest", "fastest", "fixed"]),
      carrier_id: z.string().nullable(),
      service: z.string().nullable(),
      price_cap: z.object({ amount: z.number(), currency: z.string() }).nullable(),
    }),
    row_count: z.number().int(),
    /** Rows per state, now. */
    counts: z.record(z.enum(BATCH_ROW_STATES), z.number().int()),
    /** Rated rows above the price cap, waiting for a decision. */
    held: z.number().int(),
    /** The dry run's result once it has run: totals per currency and rows per carrier and service. */
    summary: z
      .object({
        totals: z.array(Money),
        services: z.array(
          z.object({
            carrier_id: z.string(),
            carrier_name: z.string(),
            service: z.string(),
            count: z.number().int(),
            currency: z.string(),
            amount: z.number(),
          }),
        ),
      })
      .nullable(),
    created_at: Timestamp,
    confirmed_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
  })
  .meta({ id: "Batch" });
export type Batch = z.output<typeof Batch>;

export const BatchList = pageOf(Batch, "BatchList");
export const BatchListQuery = PageQuery.extend({
  state: statusFilter(BATCH_STATES).optional().describe("Only batches in these states (comma-separated)"),
}).strict();
export type BatchListQuery = z.output<typeof BatchListQuery>;

/** GET /v1/batches/{id}: the batch and a page of its rows, in line order. */
export const BatchWithRows = Batch.extend({ rows: pageOf(BatchRowSchema, "BatchRowPage") }).meta({
  id: "BatchWithRows",
});
export const BatchRowsQuery = PageQuery.extend({
  limit: PageQuery.shape.limit
    .unwrap()
    .pipe(z.number().min(1).max(1000))
    .default(100)
    .describe("Rows per page, 1–1000"),
  row_state: statusFilter(BATCH_ROW_STATES).optional().describe("Only rows in these states (comma-separated)"),
}).strict();
export type BatchRowsQuery = z.output<typeof BatchRowsQuery>;

/** POST /v1/batches/{id}/purchase: the clerk's confirmation. */
export const BatchPurchase = z
  .object({
    /** Also buy the rows held above the price cap (else they stay rated and held). */
    include_held: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
  })
  .meta({ id: "BatchPurchase" });
export type BatchPurchase = z.output<typeof BatchPurchase>;

export const BatchPrintQuery = z
  .object({
    sheet: z.enum(["label", "letter", "a4"]).default("label").describe("4×6 pages, or two labels per Letter/A4 sheet"),
    part: z
      .string()
      .regex(/^\d{1,4}$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1))
      .default(1)
      .describe("Which 100 labels: part 1 is rows' labels 1–100 in CSV order"),
  })
  .strict();
export type BatchPrintQuery = z.output<typeof BatchPrintQuery>;
