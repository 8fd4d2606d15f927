import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    // SHA-256 over method, path and body: the same key with another request answers 422.
    requestHash: text("request_hash").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    state: text("state", { enum: ["in_progress", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    // The answer to replay, sealed (AES-256-GCM, bound to the organization and key: lib/api/idempotency.ts): it
    // may hold a new API key, a webhook secret, a label and addresses, none of which is kept in the clear.
    responseSealed: text("response_sealed"),
    // Answers recorded in the clear before they were sealed: read for the 24 h such a record lives, never written.
    responseBody: jsonb("response_body"),
    // A request that died mid-flight (process killed) stops blocking its key after this instant.
    lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 6 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 6 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.key] }), index("idempotency_keys_expires").on(t.expiresAt)],
);
