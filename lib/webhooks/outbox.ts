import "server-only";
import { sql } from "drizzle-orm";
import { newId } from "@/lib/db/ids";
import { events, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { Tx } from "@/lib/db/tx";
import type { EventType } from "@/lib/schemas/event";
import { eventsWritten } from "./nudge";

/**
 * The outbox (docs/webhooks.md). Every change that clients hear about writes its events here, inside the
 * transaction of the change: an event exists exactly when its change committed, and one rolled back with it was
 * never written, so it can be neither lost nor sent by mistake. Each event is fanned out in the same statement
 * to one pending delivery per enabled endpoint of its organization (and mode) that wants its type; the sender
 * (send-due.ts) takes them from there. Delivery ids are numbered as they are written, and an endpoint's committed
 * deliveries go out by id. Every writer locks the resource's row before it writes the resource's events, so one
 * resource's deliveries are numbered (and sent) in the order its changes committed (docs/webhooks.md, "Order").
 */

export interface NewEvent {
  orgId: string;
  type: EventType;
  /** The shp_/trk_ id the event is about. */
  resourceId: string;
  testMode: boolean;
  /** The resource as the current API version presents it, now. */
  data: Record<string, unknown>;
}

export async function recordEvents(tx: Tx, list: NewEvent[], now: Date = new Date()): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = list.map((e, ord) => ({
    id: newId("event"),
    org_id: e.orgId,
    type: e.type,
    resource_id: e.resourceId,
    test_mode: e.testMode,
    data: e.data,
    ord,
  }));
  // One statement, one round trip: the events (numbered by `seq` in the order given) and, joined with the endpoints
  // that want them, their deliveries. A raw statement's parameters are not mapped by column: postgres.js (as drizzle
  // sets it up) takes text, not Dates.
  const at = now.toISOString();
  await tx.execute(sql`
    with e as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as e(id text, org_id text, type text, resource_id text, test_mode boolean, data jsonb, ord int)
    ), written as (
      insert into ${events} (id, org_id, type, resource_id, test_mode, data, created_at)
      select id, org_id, type, resource_id, test_mode, data, ${at}::timestamptz from e order by ord
    )
    insert into ${webhookDeliveries} (org_id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
    select e.org_id, w.id, e.id, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
    from e
    join ${webhookEndpoints} w
      on w.org_id = e.org_id and w.enabled and w.test_mode = e.test_mode
      and (w.enabled_events ? e.type or w.enabled_events ? '*')
    order by e.ord, w.id`);
  eventsWritten();
  return rows.map((r) => r.id);
}
