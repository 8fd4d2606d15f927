import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { WebhookEndpoint } from "@/lib/schemas/webhook";

const REASONS: Record<string, string> = {
  user: "Disabled",
  gone: "Disabled: answered 410 Gone",
  failing: "Disabled: failing for 5 days",
};

/** Enabled, failing (still enabled) or disabled with why. */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.enabled)
    return <Badge tone="danger">{REASONS[endpoint.disabled_reason ?? "user"] ?? "Disabled"}</Badge>;
  if (endpoint.failing_since)
    return (
      <span className="inline-flex flex-wrap items-center gap-1">
        <Badge tone="warning">Failing</Badge>
        <span className="text-xs text-muted-foreground">
          since <LocalTime timestamp={endpoint.failing_since} />
        </span>
      </span>
    );
  return <Badge tone="success">Enabled</Badge>;
}

/** "All events", or the list of types. */
export function eventsLabel(endpoint: WebhookEndpoint): string {
  return endpoint.enabled_events.includes("*") ? "All events" : endpoint.enabled_events.join(", ");
}
