import { z } from "zod";
import { TRACKER_STATUSES, type TrackerStatus } from "@/lib/carriers/types";
import { API_VERSIONS, type ApiVersion } from "@/lib/schemas/api-key";
import {
  SHIPMENT_STATUSES,
  ShipmentStatusFilter,
  ShipmentStatusSchema,
  type ShipmentStatus,
} from "@/lib/schemas/shipment";
import { TrackerStatusFilter, TrackerStatusSchema } from "@/lib/schemas/tracker";

/**
 * API versions (docs/api.md, "API versions"). Requests are validated and answers built in the current version;
 * an older version is a set of changes applied at the edge: to the query a client sent before it is validated, and
 * to the answer after it is built (and to a stored answer when an idempotent request is replayed). A change is keyed
 * by the zod schema it applies to, wherever that schema appears in an operation's declared query or response, so
 * the next breaking change is one entry here and no route or domain verb changes.
 */
const API_VERSION_SET: ReadonlySet<string> = new Set(API_VERSIONS);
export const isApiVersion = (v: string): v is ApiVersion => API_VERSION_SET.has(v);

/** The 2021.7 vocabulary: its generated clients validate shipment and tracker statuses against this enum. */
const LEGACY_2021_07 = ["created", "purchased", "cancelled", "shipped", "in-transit", "delivered"] as const;
type Legacy = (typeof LEGACY_2021_07)[number];

const SHIPMENT_STATUS_2021_07: Record<ShipmentStatus, Legacy> = {
  created: "created",
  purchased: "purchased",
  in_transit: "in-transit",
  out_for_delivery: "in-transit",
  needs_attention: "in-transit",
  delivery_failed: "in-transit",
  // 2021.7 had no word for a parcel that will never arrive; its exceptions all read `in-transit`. `cancelled` would
  // tell the client the label was voided (and refunded) and `delivered` that it arrived: both false, and acted on.
  lost: "in-transit",
  delivered: "delivered",
  cancelled: "cancelled",
};

const TRACKER_STATUS_2021_07: Record<TrackerStatus, Legacy> = {
  pending: "created",
  unknown: "created",
  picked_up: "shipped",
  in_transit: "in-transit",
  out_for_delivery: "in-transit",
  on_hold: "in-transit",
  delivery_delayed: "in-transit",
  delivery_failed: "in-transit",
  ready_for_pickup: "in-transit",
  return_to_sender: "in-transit",
  // As for shipments: the 2021.7 exceptions read `in-transit`, and `cancelled` or `delivered` would be acted on.
  lost: "in-transit",
  delivered: "delivered",
  cancelled: "cancelled",
};

/** Every current status that a legacy name stands for (a filter by `in-transit` matches all of them). */
function preimage<S extends string>(statuses: readonly S[], table: Record<S, Legacy>, name: string): S[] | null {
  if (!(LEGACY_2021_07 as readonly string[]).includes(name)) return null;
  return statuses.filter((s) => table[s] === name);
}

/**
 * A comma-separated status filter in a version's names, as the current names. An unknown name is left as it is
 * so that validation names it; a known name that no current status presents as (a shipment is never `shipped`)
 * matches nothing.
 */
function translateFilter<S extends string>(statuses: readonly S[], table: Record<S, Legacy>) {
  return (raw: unknown): unknown => {
    if (typeof raw !== "string") return raw;
    return raw.split(",").flatMap((name) => preimage(statuses, table, name.trim()) ?? [name]);
  };
}

interface VersionChanges {
  /** Applied to what the client sent, before the current version's schema validates it. */
  request: Map<z.ZodType, (value: unknown) => unknown>;
  /** Applied to the answer built in the current version. */
  response: Map<z.ZodType, (value: unknown) => unknown>;
}

const renamed = (table: Record<string, string>) => (value: unknown) =>
  typeof value === "string" && Object.hasOwn(table, value) ? table[value] : value;

const CHANGES: Record<ApiVersion, VersionChanges> = {
  "2026-11": { request: new Map(), response: new Map() },
  "2021-07": {
    request: new Map<z.ZodType, (value: unknown) => unknown>([
      [ShipmentStatusFilter, translateFilter(SHIPMENT_STATUSES, SHIPMENT_STATUS_2021_07)],
      [TrackerStatusFilter, translateFilter(TRACKER_STATUSES, TRACKER_STATUS_2021_07)],
    ]),
    response: new Map<z.ZodType, (value: unknown) => unknown>([
      [ShipmentStatusSchema, renamed(SHIPMENT_STATUS_2021_07)],
      [TrackerStatusSchema, renamed(TRACKER_STATUS_2021_07)],
    ]),
  },
};

/** The schema inside wrappers that do not change the JSON's shape (optional, nullable, default, describe…). */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) {
      s = s.unwrap() as z.ZodType;
    } else return s;
  }
}

/** Applies `changes` wherever their schemas appear in `value`, walking `schema` beside it. */
function applyChanges(
  changes: Map<z.ZodType, (value: unknown) => unknown>,
  schema: z.ZodType,
  value: unknown,
): unknown {
  const change = changes.get(schema);
  if (change) return change(value);
  const s = unwrap(schema);
  if (s !== schema) return applyChanges(changes, s, value);
  if (value === null || typeof value !== "object") return value;
  // A union on a discriminator (an event: `type` says which resource `data` is): the option the value names.
  if (s instanceof z.ZodDiscriminatedUnion && !Array.isArray(value)) {
    const tag = (value as Record<string, unknown>)[s.def.discriminator];
    const option = (s.options as z.ZodType[]).find((o) =>
      o._zod.propValues?.[s.def.discriminator]?.has(tag as z.core.util.Primitive),
    );
    return option ? applyChanges(changes, option, value) : value;
  }
  if (s instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => applyChanges(changes, s.element as z.ZodType, item));
  }
  if (s instanceof z.ZodObject && !Array.isArray(value)) {
    const shape = s.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = { ...value };
    for (const [key, field] of Object.entries(shape)) {
      if (Object.hasOwn(out, key)) out[key] = applyChanges(changes, field, out[key]);
    }
    return out;
  }
  return value;
}

/** The query (or other input) as the current version reads it. */
export function requestInCurrentVersion(version: ApiVersion, schema: z.ZodType | undefined, value: unknown): unknown {
  const changes = CHANGES[version].request;
  return schema && changes.size > 0 ? applyChanges(changes, schema, value) : value;
}

/** An answer built in the current version, as `version` presents it. */
export function responseInVersion(version: ApiVersion, schema: z.ZodType | undefined, value: unknown): unknown {
  const changes = CHANGES[version].response;
  return schema && changes.size > 0 ? applyChanges(changes, schema, value) : value;
}
