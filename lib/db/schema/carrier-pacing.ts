import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The next free start of a carrier connection's paced calls (a batch's budget of calls per second), shared by every
 * instance on one database (lib/connections/pace.ts): each call takes the next slot with one statement. Not scoped to
 * an organization: the key names a connection's budget, and the row holds only a time.
 */
export const carrierPacing = pgTable("carrier_pacing", {
  key: text("key").primaryKey(),
  nextAt: timestamp("next_at", { withTimezone: true, precision: 6 }).notNull(),
});
