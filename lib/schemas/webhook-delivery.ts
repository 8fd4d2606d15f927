import { z } from "zod";
import { Timestamp } from "./common";
import { PageQuery, pageOf } from "./pagination";
import { boolQuery } from "./params";

/**
 * The delivery side of webhooks (docs/webhooks.md, "The delivery log", "Redelivery"): one attempt to send an event
 * (or a test ping) to an endpoint, and what a redelivery queued.
 */

const EVENT_ID = /^evt_[0-9a-f]{32}$/;
const WEBHOOK_ID = /^whk_[0-9a-f]{32}$/;

export const WebhookAttempt = z
  .object({
    endpoint_id: z.string(),
    /** The event's id, which is also the `webhook-id` header the receiver got (a ping's own `evt_` id). */
    event_id: z.string(),
    /** An event type, or `ping` for a test. */
    event_type: z.string(),
    attempted_at: Timestamp,
    /** Null when no HTTP answer came (refused URL, DNS, connection, timeout). */
    status_code: z.number().int().nullable(),
    duration_ms: z.number().int(),
    /** The first 2 KB of the answer's body, as text. */
    response_excerpt: z.string().nullable(),
    /**
     * Null on success; else `http_status` (a non-2xx answer), `redirect` (3xx: not followed), `timeout`,
     * `connection`, `tls`, `dns`, `refused_address` (a private, loopback, link-local or metadata address),
     * `insecure_url` (http where https is required) or `invalid_url`.
     */
    error_class: z.string().nullable(),
    succeeded: z.boolean(),
  })
  .meta({ id: "WebhookAttempt" });
export type WebhookAttempt = z.output<typeof WebhookAttempt>;

export const WebhookAttemptList = pageOf(WebhookAttempt, "WebhookAttemptList");

export const WebhookAttemptListQuery = PageQuery.extend({
  event_id: z.string().regex(EVENT_ID, "must be an evt_ id").optional().describe("Only attempts to send this event"),
  succeeded: boolQuery.optional().describe("Only successful (true) or failed (false) attempts"),
}).strict();
export type WebhookAttemptListQuery = z.output<typeof WebhookAttemptListQuery>;

export const EventRedeliver = z
  .object({
    /** One endpoint; without it, every enabled endpoint of the event's mode that subscribes to its type. */
    endpoint_id: z
      .string()
      .regex(WEBHOOK_ID, "must be a whk_ id")
      .nullish()
      .transform((v) => v ?? null),
  })
  .meta({ id: "EventRedeliver" });
export type EventRedeliver = z.output<typeof EventRedeliver>;

export const Redelivery = z
  .object({
    event_id: z.string(),
    /** One pending delivery per endpoint, due now (behind the endpoint's older pending deliveries). */
    deliveries: z.array(
      z.object({
        endpoint_id: z.string(),
        status: z.enum(["pending"]),
        next_attempt_at: Timestamp,
      }),
    ),
  })
  .meta({ id: "Redelivery" });
export type Redelivery = z.output<typeof Redelivery>;
