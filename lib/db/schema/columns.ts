import { type ExtraConfigColumn, customType, timestamp } from "drizzle-orm/pg-core";

/** Every timestamp we store: with time zone, microseconds (the API prints six digits: docs/api.md, "Conventions"). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });

/** Raw bytes (label files). postgres.js hands back a Buffer, PGlite a Uint8Array: both are Uint8Array. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
  fromDriver: (value) => (value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBufferLike)),
});

/**
 * Index columns for "newest first" lists. `ORDER BY created_at DESC, id DESC` means NULLS FIRST in Postgres, and an
 * index only serves an ORDER BY whose null placement matches (drizzle's `.desc()` alone is NULLS LAST).
 */
export const newestFirst = (t: { createdAt: ExtraConfigColumn; id: ExtraConfigColumn }) =>
  [t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()] as const;
