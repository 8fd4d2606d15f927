import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // SHA-256 hex of the whole key; the key itself is never stored.
    keyHash: text("key_hash").notNull(),
    // First characters of the key, enough for a person to recognise it in a list.
    keyPrefix: text("key_prefix").notNull(),
    source: text("source", { enum: ["cli", "bootstrap", "generated", "api"] }).notNull(),
    // The API version its requests are answered in unless they send `Shipwell-Version` (lib/schemas/api-key.ts). Keys
    // made before versions existed answer in the version that was current then.
    apiVersion: text("api_version").notNull().default("2026-11"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 6 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 6 }),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_org").on(t.orgId)],
);
