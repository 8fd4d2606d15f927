import { boolean, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

export const organizations = pgTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    // The organization that BOOTSTRAP_API_KEY and the CLI's default target; at most one.
    isDefault: boolean("is_default").notNull().default(false),
    // SIGN_UP=invite_only: the email whose sign-up was let through as the default organization's first account
    // (lib/auth/sign-up-policy.ts), so two simultaneous first sign-ups cannot both get in. Stale after a while.
    firstOwnerEmail: text("first_owner_email"),
    firstOwnerClaimedAt: timestamp("first_owner_claimed_at", { withTimezone: true, precision: 6 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("organizations_one_default")
      .on(t.isDefault)
      .where(sql`${t.isDefault}`),
  ],
);
