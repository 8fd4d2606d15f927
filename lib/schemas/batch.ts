import { z } from "zod";
import { BATCH_ROW_STATES, BATCH_STATES } from "./batch-states";
import { WEIGHT_UNITS } from "@/lib/carriers/types";
import { AddressInput } from "./address";
import { Timestamp, labelType, optionalText } from "./common";
import { ShippingOptions } from "./options";
import { PageQuery, pageOf, queryCount } from "./pagination";
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

/** How one row's rate is picked among its rates: cheapest, fastest, or a fixed carrier (connection) and service. */
const RatePick = z
  .object({
    kind: z.enum(["cheapest", "fastest", "fixed"]).default("cheapest"),
    /** `fixed`: the connection's carrier_id and its service code (a row's own columns win over them). */
    carrier_id: optionalText(64),
    service: optionalText(100),
  })
  .superRefine((p, ctx) => {
    if (p.kind === "fixed" && !p.service) {
      ctx.addIssue({ code: "custom", path: ["service"], message: "is required for a fixed pick" });
    }
  });

const bound = z.number().nonnegative().max(1_000_000).nullish();
const bounds = { min: bound.transform((v) => v ?? null), max: bound.transform((v) => v ?? null) };
function checkRange(r: { min: number | null; max: number | null }, ctx: z.RefinementCtx) {
  if (r.min === null && r.max === null) {
    ctx.addIssue({ code: "custom", path: ["min"], message: "give min, max or both" });
  } else if (r.min !== null && r.max !== null && r.min > r.max) {
    ctx.addIssue({ code: "custom", path: ["max"], message: "must not be below min" });
  }
}

/** One rule: when every condition given matches the row (weight, destination, declared value), its pick applies. */
const RateRule = z
  .object({
    /** The parcels' total weight, min ≤ weight ≤ max, in `unit` (the row's weight is converted). */
    weight: z
      .object({
        ...bounds,
        unit: z
          .string()
          .transform((v) => v.trim().toUpperCase())
          .pipe(z.enum(WEIGHT_UNITS))
          .default("KG"),
      })
      .superRefine(checkRange)
      .nullish()
      .transform((v) => v ?? null),
    /** Where the parcel goes: a country, and optionally a state and a postal code's first characters. */
    destination: z
      .object({
        country_code: z
          .string()
          .trim()
          .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")
          .transform((v) => v.toUpperCase()),
        state_code: optionalText(10).transform((v) => v?.toUpperCase() ?? null),
        postal_prefix: optionalText(10).transform((v) => v?.toUpperCase().replace(/\s+/g, "") ?? null),
      })
      .nullish()
      .transform((v) => v ?? null),
    /** The goods' declared value (the customs value, else options.declared_value), min ≤ value ≤ max, in `currency`. */
    value: z
      .object({ ...bounds, currency })
      .superRefine(checkRange)
      .nullish()
      .transform((v) => v ?? null),
    pick: RatePick,
  })
  .superRefine((r, ctx) => {
    if (!r.weight && !r.destination && !r.value) {
      ctx.addIssue({
        code: "custom",
        path: ["weight"],
        message: "a rule needs a condition (weight, destination or value); rows no rule matches take the fallback",
      });
    }
  });

/** docs/api.md, "Batches": how each row's rate is picked; rows above the cap wait for a decision. */
const RatePolicy = z
  .object({
    kind: z.enum(["cheapest", "fastest", "fixed", "rules"]).default("cheapest"),
    /** `fixed`: the connection's carrier_id and its service code (a row's own columns win over them). */
    carrier_id: optionalText(64),
    service: optionalText(100),
    /** `rules`: tried in order, the first that matches a row picks its rate. */
    rules: z.array(RateRule).max(50).default([]),
    /** `rules`: the pick for a row no rule matches (default cheapest). */
    fallback: RatePick.nullish().transform((v) => v ?? null),
    price_cap: z
      .object({ amount: money, currency })
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((p, ctx) => {
    if (p.kind === "fixed" && !p.service) {
      ctx.addIssue({ code: "custom", path: ["service"], message: "is required for a fixed policy" });
    }
    if (p.kind === "rules" && p.rules.length === 0) {
      ctx.addIssue({ code: "custom", path: ["rules"], message: "give at least one rule for a rules policy" });
    }
    if (p.kind !== "rules" && (p.rules.length > 0 || p.fallback)) {
      ctx.addIssue({ code: "custom", path: ["rules"], message: 'rules and fallback are for kind "rules"' });
    }
    if (p.kind === "rules" && (p.carrier_id || p.service)) {
      ctx.addIssue({
        code: "custom",
        path: ["service"],
        message: "a rules policy picks per rule: give carrier_id and service in a rule's pick or the fallback",
      });
    }
  })
  .transform((p) => ({ ...p, fallback: p.kind === "rules" ? (p.fallback ?? RatePick.parse({})) : null }))
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
    /**
     * An address book entry (its id) as the ship-from of every CSV row, in place of `shipper`; with neither, the
     * book's default ship-from.
     */
    shipper_address_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullish()
      .transform((v) => v ?? null),
    label_type: labelType.nullish().transform((v) => v ?? "PDF"),
    options: ShippingOptions.nullish().transform((v) => v ?? {}),
    rate_policy: RatePolicy.nullish().transform((v) => v ?? RatePolicy.parse({})),
    /**
     * `purchase` (default): the rows are checked, priced and bought. `print`: `shipment_ids` already bought become
     * one print run (their labels merged in the order given); nothing is rated or bought.
     */
    kind: z.enum(["purchase", "print"]).default("purchase"),
  })
  .superRefine((b, ctx) => {
    if (b.kind === "print" && b.shipment_ids === null) {
      ctx.addIssue({ code: "custom", path: ["shipment_ids"], message: "is required for a print run" });
    }
    if (b.shipper !== null && b.shipper_address_id !== null) {
      ctx.addIssue({
        code: "custom",
        path: ["shipper_address_id"],
        message: "give either `shipper` or this, not both",
      });
    }
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
    /** Why a row needs a decision: `price_cap` (its rate is above the policy's cap; bought only once approved). */
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

const RatePickOut = z.object({
  kind: z.enum(["cheapest", "fastest", "fixed"]),
  carrier_id: z.string().nullable(),
  service: z.string().nullable(),
});

export const Batch = z
  .object({
    id: z.string(),
    state: z.enum(BATCH_STATES),
    source: z.enum(["csv", "shipments"]),
    /** `purchase`, or `print`: bought shipments gathered as one print run (never rated or bought here). */
    kind: z.enum(["purchase", "print"]),
    filename: z.string().nullable(),
    rate_policy: RatePickOut.extend({
      kind: z.enum(["cheapest", "fastest", "fixed", "rules"]),
      rules: z.array(
        z.object({
          weight: z.object({ min: z.number().nullable(), max: z.number().nullable(), unit: z.string() }).nullable(),
          destination: z
            .object({
              country_code: z.string(),
              state_code: z.string().nullable(),
              postal_prefix: z.string().nullable(),
            })
            .nullable(),
          value: z.object({ min: z.number().nullable(), max: z.number().nullable(), currency: z.string() }).nullable(),
          pick: RatePickOut,
        }),
      ),
      fallback: RatePickOut.nullable(),
      price_cap: z.object({ amount: z.number(), currency: z.string() }).nullable(),
    }),
    /** The mode of the connections the batch's rows are rated and bought by: its webhook events' mode. */
    test_mode: z.boolean(),
    row_count: z.number().int(),
    /** Rows per state, now. */
    counts: z.record(z.enum(BATCH_ROW_STATES), z.number().int()),
    /** Rows above the price cap, waiting for a decision (`needs_decision`). */
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
  // Its own bound: PageQuery's limit already stops at 100.
  limit: queryCount.pipe(z.number().min(1).max(1000)).default(100).describe("Rows per page, 1–1000"),
  row_state: statusFilter(BATCH_ROW_STATES).optional().describe("Only rows in these states (comma-separated)"),
}).strict();
export type BatchRowsQuery = z.output<typeof BatchRowsQuery>;

/** POST /v1/batches/{id}/purchase: the clerk's confirmation. */
export const BatchPurchase = z
  .object({
    /** Also approve every row above the price cap at its price (else they wait in needs_decision). */
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

/** POST /v1/batches/{id}/decisions: rows above the price cap bought at their price (`approve`) or left (`skip`). */
export const BatchDecision = z
  .object({
    decision: z.enum(["approve", "skip"]),
    /** The rows' lines, as GET /v1/batches/{id} lists them. */
    lines: z
      .array(
        z
          .number()
          .int()
          .min(1)
          .max(MAX_BATCH_ROWS + 1),
      )
      .min(1)
      .max(MAX_BATCH_ROWS)
      .transform((l) => [...new Set(l)]),
  })
  .strict()
  .meta({ id: "BatchDecision" });
export type BatchDecision = z.output<typeof BatchDecision>;
