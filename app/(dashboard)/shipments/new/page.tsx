import type { Metadata } from "next";
import { CreateLabelForm } from "@/components/shipments/create/create-label-form";
import type { CarrierSummary } from "@/components/shipments/create/rates-panel";
import { listConnections } from "@/lib/connections/list-connections";
import { lastShipFrom } from "@/lib/auth/memberships";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Create label" };
// Per request: the organization's connections (and, with sessions, the user) are never baked in at build time.
export const dynamic = "force-dynamic";

export default async function CreateLabelPage() {
  const { ctx } = await requireSession();
  const [{ results }, shipFrom] = await Promise.all([
    listConnections({ ctx, filters: { active: true, limit: 100, offset: 0 } }),
    lastShipFrom(ctx),
  ]);
  const carriers: CarrierSummary[] = results
    .filter((c) => c.capabilities.includes("rates"))
    .map((c) => ({
      id: c.id,
      carrierId: c.carrier_id,
      carrierName: c.carrier_name,
      displayName: c.display_name || c.carrier_id,
      testMode: c.test_mode,
    }));
  return (
    <div className="grid gap-4 px-4 py-6 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Create label</h1>
      {/* The ship-from of this person's last shipment here (docs/api.md, "Accounts and roles"). */}
      <CreateLabelForm defaults={{ shipFrom }} carriers={carriers} />
    </div>
  );
}
