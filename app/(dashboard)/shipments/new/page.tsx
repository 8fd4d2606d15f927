import type { Metadata } from "next";
import { CreateLabelForm } from "@/components/shipments/create/create-label-form";
import type { CarrierSummary } from "@/components/shipments/create/rates-panel";
import { startingShipFrom } from "@/lib/addresses/starting-ship-from";
import { listConnections } from "@/lib/connections/list-connections";
import { requireSession } from "@/lib/dashboard/session";
import { MAX_PARCEL_PRESETS } from "@/lib/orgs/parcel-presets/create-parcel-preset";
import { listParcelPresets } from "@/lib/orgs/parcel-presets/get-parcel-preset";
import { getRateRule } from "@/lib/orgs/rate-rule";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Create label" };

export default async function CreateLabelPage() {
  const { ctx, user, org } = await requireSession();
  const [connections, shipFrom, presets, rateRule] = await Promise.all([
    listConnections({ ctx, filters: { active: true, limit: 100, offset: 0 } }),
    startingShipFrom(ctx),
    listParcelPresets({ ctx, query: { limit: MAX_PARCEL_PRESETS, offset: 0 } }),
    getRateRule(ctx),
  ]);
  const carriers: CarrierSummary[] = connections.results
    .filter((c) => c.capabilities.includes("rates"))
    .map((c) => ({
      id: c.id,
      carrierId: c.carrier_id,
      carrierName: c.carrier_name,
      displayName: c.display_name || c.carrier_id,
      testMode: c.test_mode,
    }));
  return (
    <div className="grid grid-cols-1 gap-5">
      <PageHeader title="Create label" />
      <CreateLabelForm
        defaults={{ shipFrom, signer: user.name }}
        carriers={carriers}
        presets={presets.results}
        rateRule={rateRule}
        owner={{ orgId: org.id, userId: user.id }}
      />
    </div>
  );
}
