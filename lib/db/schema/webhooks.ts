import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { organizations } from "./organizations";
import { newestFirst, timestamptz } from "./columns";

/**
 * Webhooks (docs/webhooks.md). `events` is the outbox: written in the transaction of the change that caused it, so
 * an event exists exactly when its change committed. Each event fans out to one `webhook_deliveries` row per
 * endpoint that wants it, in the same transaction; the sender claims deliveries (SKIP LOCKED) and logs every attempt
 * in `webhook_attempts`.
 */

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    // The shp_/trk_ id the event is about: filters and ordering per resource.
    resourceId: text("resource_id").notNull(),
    testMode: boolean("test_mode").notNull(),
    // The resource as the current API version presents it, at the moment of the change.
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    // The order events were written in: the events of one transaction share created_at.
    seq: bigserial("seq", { mode: "number" }).notNull(),
  },
  (t) => [
    index("events_org_seq").on(t.orgId, t.seq.desc()),
    index("events_org_resource").on(t.orgId, t.resourceId),
    index("events_created").on(t.createdAt),
  ],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    // Event types, or ["*"] for all of them.
    enabledEvents: jsonb("enabled_events").$type<string[]>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    // Why a disabled endpoint is disabled: "user", "gone" (answered 410), "failing" (5 days without a success).
    disabledReason: text("disabled_reason", { enum: ["user", "gone", "failing"] }),
    testMode: boolean("test_mode").notNull(),
    // The API version `data` is presented in (the creating key's).
    apiVersion: text("api_version").notNull(),
    // AES-256-GCM envelopes (lib/connections/crypto.ts), bound to the endpoint id.
    secretEncrypted: text("secret_encrypted").notNull(),
    // After a rotation the old secret signs too, until it expires.
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: timestamptz("previous_secret_expires_at"),
    // The first failed attempt since the last success; null while the endpoint answers.
    failingSince: timestamptz("failing_since"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_org_created").on(t.orgId, ...newestFirst(t))],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    // pending: to be sent at next_attempt_at; succeeded; failed: its retries ran out (redeliver makes a new one).
    status: text("status", { enum: ["pending", "succeeded", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at"),
    // A sender holds the delivery until then; another may take it over after (a crashed sender). Deliveries of one
    // endpoint go out in id order, which is the order their events were written.
    leaseUntil: timestamptz("lease_until"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // The sender's question: the oldest pending delivery of each endpoint (deliveries keep event order per endpoint).
    index("webhook_deliveries_pending")
      .on(t.endpointId, t.id)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_due")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_event").on(t.eventId),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    // Null for a test ping, which is no stored event and no delivery.
    deliveryId: bigint("delivery_id", { mode: "number" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    attemptedAt: timestamptz("attempted_at").notNull(),
    // Null when no HTTP answer came (timeout, refused address, connection error).
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    // The first 2 KB of the answer, as text.
    responseExcerpt: text("response_excerpt"),
    // What went wrong: null on success; "http_status", "timeout", "connection", "refused_address", "redirect", …
    errorClass: text("error_class"),
    succeeded: boolean("succeeded").notNull(),
  },
  (t) => [index("webhook_attempts_endpoint").on(t.endpointId, t.attemptedAt.desc())],
);
