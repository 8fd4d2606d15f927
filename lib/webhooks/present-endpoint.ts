import type { ApiVersion } from "@/lib/schemas/api-key";
import type { EnabledEvent, WebhookEndpoint } from "@/lib/schemas/webhook";
import { formatTimestamp } from "@/lib/timestamp";
import type { WebhookEndpointRow } from "./endpoint-rows";

/** The public shape of an endpoint; its secrets never leave through here (creation and rotation add the new one). */
export function presentEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled_events: row.enabledEvents as EnabledEvent[],
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : row.disabledReason,
    test_mode: row.testMode,
    // Only versions this service knows are ever written (create-endpoint.ts).
    api_version: row.apiVersion as ApiVersion,
    failing_since: row.failingSince ? formatTimestamp(row.failingSince) : null,
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
  };
}
