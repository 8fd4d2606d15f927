import type { Metadata } from "next";
import { NewBatchFormView } from "@/components/batches/new-batch-form";
import { startingShipFrom } from "@/lib/addresses/starting-ship-from";
import { getMappingTemplate } from "@/lib/batches/mapping-template";
import { serviceChoice } from "@/lib/client/batch-form";
import { listCarriers } from "@/lib/connections/list-carriers";
import { listConnections } from "@/lib/connections/list-connections";
import { defaultValues } from "@/lib/client/create-label/form-defaults";
import { requireSession } from "@/lib/dashboard/session";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "New batch" };

export default async function NewBatchPage() {
  const { ctx, org, user } = await requireSession();
  const [saved, shipFrom, connections] = await Promise.all([
    getMappingTemplate(ctx),
    startingShipFrom(ctx),
    listConnections({ ctx, filters: { active: true, limit: 100, offset: 0 } }),
  ]);
  const carriers = new Map(listCarriers().map((c) => [c.carrier_name, c]));
  // A fixed service: each connection able to buy labels, with its carrier's services.
  const services = connections.results
    .filter((c) => c.capabilities.includes("ship"))
    .flatMap((c) =>
      (carriers.get(c.carrier_name)?.services ?? []).map((s) => ({
        value: serviceChoice(c.carrier_id, s.code),
        label: `${c.display_name || c.carrier_id}: ${s.name}`,
      })),
    );
  return (
    <div className="grid grid-cols-1 gap-5">
      <PageHeader title="New batch" />
      <NewBatchFormView
        savedMapping={saved.mapping}
        shipper={defaultValues({ shipFrom }).shipper}
        owner={{ orgId: org.id, userId: user.id }}
        services={services}
      />
    </div>
  );
}
