import { doublePrecision, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The deployment-wide token buckets behind the per-key, per-person and per-address limits when several instances
 * share one Postgres (lib/api/rate-limit.ts): each instance spends from its own bucket and settles what it spent
 * here in batches. Not scoped to an organization: a bucket belongs to a limit, not to a tenant's data. The key is a
 * hash of the limit's name and what it counts (an API key id, an address, an email), so no address or email is kept.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    // Below zero is debt: what instances spent on a stale view of the bucket, paid back before anyone spends again.
    tokens: doublePrecision("tokens").notNull(),
    capacity: doublePrecision("capacity").notNull(),
    windowMs: integer("window_ms").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index("rate_limits_updated_at").on(t.updatedAt)],
);
