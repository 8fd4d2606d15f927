import type { webhookAttempts } from "@/lib/db/schema";
import type { WebhookAttempt } from "@/lib/schemas/webhook-delivery";
import { formatTimestamp } from "@/lib/timestamp";

type AttemptRow = typeof webhookAttempts.$inferSelect;

/** The one place a delivery-log entry's JSON is built. Its row id is internal (a sequence) and not shown. */
export function presentAttempt(row: AttemptRow): WebhookAttempt {
  return {
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    attempted_at: formatTimestamp(row.attemptedAt),
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    response_excerpt: row.responseExcerpt,
    error_class: row.errorClass,
    succeeded: row.succeeded,
  };
}
