import type { Metadata } from "next";
import { ParcelPresetsPanel } from "@/components/settings/parcels/parcel-presets-panel";
import { RateRuleForm, type RuleConnection } from "@/components/settings/parcels/rate-rule-form";
import { SettingsHeader } from "@/components/settings/settings-header";
import { roleAllows } from "@/lib/auth/roles";
import { listCarriers } from "@/lib/connections/list-carriers";
import { listConnections } from "@/lib/connections/list-connections";
import { requireSession } from "@/lib/dashboard/session";
import { MAX_PARCEL_PRESETS } from "@/lib/orgs/parcel-presets/create-parcel-preset";
import { listParcelPresets } from "@/lib/orgs/parcel-presets/get-parcel-preset";
import { getRateRule } from "@/lib/orgs/rate-rule";

export const metadata: Metadata = { title: "Parcels and rates" };

export default async function ParcelSettings() {
  const { ctx, role } = await requireSession();
  const [presets, rule, connections] = await Promise.all([
    listParcelPresets({ ctx, query: { limit: MAX_PARCEL_PRESETS, offset: 0 } }),
    getRateRule(ctx),
    listConnections({ ctx, filters: { active: true, limit: 100, offset: 0 } }),
  ]);
  const carriers = listCarriers();
  const rating: RuleConnection[] = connections.results
    .filter((c) => c.capabilities.includes("rates"))
    .map((c) => ({
      carrierId: c.carrier_id,
      label: c.display_name || c.carrier_id,
      services: (carriers.find((d) => d.carrier_name === c.carrier_name)?.services ?? []).map((s) => ({
        code: s.code,
        name: s.name,
      })),
    }));
  const manager = roleAllows(role, "admin");
  return (
    <div className="grid gap-8">
      <SettingsHeader current="parcels" role={role} />
      <ParcelPresetsPanel presets={presets.results} manager={manager} />
      <RateRuleForm rule={rule} connections={rating} manager={manager} />
    </div>
  );
}
