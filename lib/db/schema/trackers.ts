import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { TRACKER_STATUSES, type CarrierMessage } from "../../carriers/types";
import { organizations } from "./organizations";
import { shipments } from "./shipments";
import { newestFirst, timestamptz } from "./columns";

export const trackers = pgTable(
  "trackers",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    carrierName: text("carrier_name").notNull(),
    carrierId: text("carrier_id").notNull(),
    // The connection that tracks it; history, not a foreign key (a deleted connection falls back to another).
    carrierConnectionId: text("carrier_connection_id").notNull(),
    trackingNumber: text("tracking_number").notNull(),
    status: text("status", { enum: TRACKER_STATUSES }).notNull(),
    testMode: boolean("test_mode").notNull(),
    estimatedDelivery: text("estimated_delivery"),
    shipmentId: text("shipment_id").references((): AnyPgColumn => shipments.id, { onDelete: "set null" }),
    lastEventAt: timestamptz("last_event_at"),
    refreshedAt: timestamptz("refreshed_at"),
    // Null once the tracker is final or retired: the background refresh never looks at it again.
    nextRefreshAt: timestamptz("next_refresh_at"),
    refreshFailures: integer("refresh_failures").notNull().default(0),
    lastError: jsonb("last_error").$type<CarrierMessage[]>(),
    retiredAt: timestamptz("retired_at"),
    // The id of its public tracking page (/track/{public_id}): 128 random bits, not the API's trk_ id, assigned when a
    // share link is first asked for.
    publicId: text("public_id"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("trackers_org_carrier_number").on(t.orgId, t.carrierName, t.trackingNumber),
    index("trackers_org_created").on(t.orgId, ...newestFirst(t)),
    index("trackers_org_status_created").on(t.orgId, t.status, ...newestFirst(t)),
    index("trackers_org_number").on(t.orgId, t.trackingNumber),
    index("trackers_due")
      .on(t.nextRefreshAt)
      .where(sql`${t.nextRefreshAt} is not null`),
    index("trackers_connection_due")
      .on(t.carrierConnectionId, t.nextRefreshAt)
      .where(sql`${t.nextRefreshAt} is not null`),
    index("trackers_shipment").on(t.shipmentId),
    uniqueIndex("trackers_public_id")
      .on(t.publicId)
      .where(sql`${t.publicId} is not null`),
  ],
);

/** One row per distinct carrier event; the key makes a repeated scan a no-op instead of a duplicate. */
export const trackingEventsSeq = pgSequence("tracking_events_seq");

export const trackingEvents = pgTable(
  "tracking_events",
  {
    trackerId: text("tracker_id")
      .notNull()
      .references(() => trackers.id, { onDelete: "cascade" }),
    fingerprint: text("fingerprint").notNull(),
    orgId: text("org_id").notNull(),
    occurredAt: timestamptz("occurred_at").notNull(),
    date: text("date").notNull(),
    time: text("time"),
    description: text("description").notNull(),
    location: text("location").notNull(),
    code: text("code").notNull(),
    status: text("status", { enum: TRACKER_STATUSES }).notNull(),
    // The order events were recorded in, each answer's written oldest first: of two events of the same instant (a
    // carrier stamping to the second or the minute) the one it listed first, or told later, is the newer. Null on
    // events recorded before the column, which then sort after those of their instant that have it.
    seq: bigint("seq", { mode: "number" }).default(sql`nextval('tracking_events_seq')`),
  },
  (t) => [
    primaryKey({ columns: [t.trackerId, t.fingerprint] }),
    index("tracking_events_tracker_time").on(t.trackerId, t.occurredAt.desc()),
  ],
);
