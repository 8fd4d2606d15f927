import type { carrierConnections } from "@/lib/db/schema";
import { getAdapter } from "@/lib/carriers/registry";
import { formatTimestamp } from "@/lib/timestamp";
import type { Connection } from "@/lib/schemas/connection";

export type ConnectionRow = typeof carrierConnections.$inferSelect;

/** The public shape of a connection; credentials are write-only and never leave through here. */
export function presentConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    carrier_name: row.carrierName,
    carrier_id: row.carrierId,
    display_name: row.displayName,
    test_mode: row.testMode,
    active: row.active,
    capabilities: [...(getAdapter(row.carrierName)?.capabilities ?? [])],
    config: row.config,
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
    refresh_backoff_until:
      row.refreshBackoffUntil && row.refreshBackoffUntil > new Date() ? formatTimestamp(row.refreshBackoffUntil) : null,
  };
}
