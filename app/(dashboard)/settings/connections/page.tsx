import type { Metadata } from "next";
import { ConnectionsPanel } from "@/components/settings/connections/connections-panel";
import { SettingsHeader } from "@/components/settings/settings-header";
import { roleAllows } from "@/lib/auth/roles";
import { listCarriers } from "@/lib/connections/list-carriers";
import { listConnections } from "@/lib/connections/list-connections";
import { requireSession } from "@/lib/dashboard/session";
import { lastTrackingErrors } from "@/lib/trackers/connection-errors";

export const metadata: Metadata = { title: "Carrier connections" };

export default async function ConnectionsSettings() {
  const { ctx, role } = await requireSession();
  const { results } = await listConnections({ ctx, filters: { limit: 100, offset: 0 } });
  const errors = await lastTrackingErrors(
    ctx,
    results.map((c) => c.id),
  );
  const issues = Object.fromEntries(
    Object.entries(errors).map(([id, e]) => [id, { message: e.message, at: e.at.toISOString() }]),
  );
  return (
    <div className="grid gap-6">
      <SettingsHeader current="connections" role={role} />
      <ConnectionsPanel
        connections={results}
        carriers={listCarriers()}
        issues={issues}
        manager={roleAllows(role, "admin")}
      />
    </div>
  );
}
