import "server-only";
import type { AuditSummary } from "@/lib/audit/record";
import type { WebhookEndpointRow } from "./endpoint-rows";

/**
 * An endpoint as the audit log keeps it: the receiver's host, not its URL (a path or query may carry a token the
 * receiver checks), and never a secret.
 */
export function endpointSummary(row: WebhookEndpointRow): AuditSummary {
  return {
    url_host: new URL(row.url).host,
    enabled: row.enabled,
    enabled_events: row.enabledEvents,
    test_mode: row.testMode,
    api_version: row.apiVersion,
  };
}
