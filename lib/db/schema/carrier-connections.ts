import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

export const carrierConnections = pgTable(
  "carrier_connections",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    carrierName: text("carrier_name").notNull(),
    // The friendly name clients use in carrier_ids; unique per organization.
    carrierId: text("carrier_id").notNull(),
    displayName: text("display_name").notNull(),
    testMode: boolean("test_mode").notNull().default(true),
    active: boolean("active").notNull().default(true),
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    // AES-256-GCM envelope (lib/connections/crypto.ts); null when the carrier needs no credentials.
    credentialsEncrypted: text("credentials_encrypted"),
    // The carrier asked us to slow down (429 / Retry-After): background tracking leaves it alone until then.
    refreshBackoffUntil: timestamp("refresh_backoff_until", { withTimezone: true, precision: 6 }),
    // One background-refresh worker per connection at a time, across processes: its budget is spent in one place.
    refreshLeaseUntil: timestamp("refresh_lease_until", { withTimezone: true, precision: 6 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("carrier_connections_org_carrier_id").on(t.orgId, t.carrierId),
    index("carrier_connections_org_carrier_name").on(t.orgId, t.carrierName),
  ],
);
