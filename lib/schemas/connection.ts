import { z } from "zod";
import { CAPABILITIES } from "@/lib/carriers/types";
import { CARRIER_NAMES } from "@/lib/carriers/names";
import { Timestamp, blankIsNull, boundedObject, optionalText, orEmpty } from "./common";
import { PageQuery, pageOf } from "./pagination";
import { boolQuery } from "./params";

const friendlyId = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  )
  .refine((v) => !v.startsWith("car_"), "must not start with car_ (reserved for connection ids)");

const object = z.record(z.string(), z.unknown());

/** PATCH: `null` (and `""` for text) leaves the field as it is, like leaving it out (docs/api.md, "Requests"). */
const unchangedWhenNull = <T extends z.ZodType>(schema: T) =>
  blankIsNull(schema).transform((v): z.output<T> | undefined => v ?? undefined);

export const ConnectionCreate = z
  .object({
    carrier_name: z.enum(CARRIER_NAMES),
    carrier_id: friendlyId,
    display_name: optionalText(100),
    test_mode: z.boolean().default(true),
    active: z.boolean().default(true),
    credentials: orEmpty(boundedObject, () => ({})),
    config: orEmpty(boundedObject, () => ({})),
  })
  .meta({ id: "ConnectionCreate" });
export type ConnectionCreate = z.output<typeof ConnectionCreate>;

export const ConnectionUpdate = z
  .object({
    carrier_id: friendlyId.optional(),
    display_name: unchangedWhenNull(z.string().trim().max(100)),
    test_mode: z.boolean().optional(),
    active: z.boolean().optional(),
    credentials: unchangedWhenNull(boundedObject),
    config: unchangedWhenNull(boundedObject),
  })
  .meta({ id: "ConnectionUpdate" });
export type ConnectionUpdate = z.output<typeof ConnectionUpdate>;

export const Connection = z
  .object({
    id: z.string(),
    carrier_name: z.string(),
    carrier_id: z.string(),
    display_name: z.string(),
    test_mode: z.boolean(),
    active: z.boolean(),
    capabilities: z.array(z.enum(CAPABILITIES)),
    config: object,
    created_at: Timestamp,
    updated_at: Timestamp,
    /** Set while the carrier has told us to slow down (429): background tracking waits until then. */
    refresh_backoff_until: Timestamp.nullable(),
  })
  .meta({ id: "Connection" });
export type Connection = z.output<typeof Connection>;

export const ConnectionList = pageOf(Connection, "ConnectionList");

export const ConnectionListQuery = PageQuery.extend({
  carrier_name: z.string().min(1).max(50).optional().describe("Only this carrier"),
  active: boolQuery.optional().describe("Only active (true) or inactive (false) connections"),
}).strict();
export type ConnectionListQuery = z.output<typeof ConnectionListQuery>;

/** Config keys every connection takes, whatever its carrier. */
export const CommonConnectionConfig = z.object({
  deadline_ms: z.number().int().min(100).max(120_000).optional(),
  /** Background tracking budget (defaults per carrier in lib/trackers/refresh/budget.ts). */
  refresh_concurrency: z.number().int().min(1).max(64).optional(),
  refresh_requests_per_minute: z.number().int().min(1).max(100_000).optional(),
  refresh_batch_size: z.number().int().min(1).max(100).optional(),
  /** Label and rate calls per second a batch may make on this connection (lib/batches/run-batch.ts; default 20). */
  batch_calls_per_second: z.number().min(0.1).max(1000).optional(),
});
export const COMMON_CONFIG_KEYS = Object.keys(CommonConnectionConfig.shape) as (keyof z.output<
  typeof CommonConnectionConfig
>)[];
