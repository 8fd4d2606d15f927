import type { Metadata } from "next";
import { NewBatchFormView } from "@/components/batches/new-batch-form";
import { lastShipFrom } from "@/lib/auth/memberships";
import { getMappingTemplate } from "@/lib/batches/mapping-template";
import { defaultValues } from "@/lib/client/create-label/form-defaults";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "New batch" };

export default async function NewBatchPage() {
  const { ctx, org, user } = await requireSession();
  const [saved, shipFrom] = await Promise.all([getMappingTemplate(ctx), lastShipFrom(ctx)]);
  return (
    <div className="grid grid-cols-1 gap-5">
      <h1 className="text-2xl font-semibold tracking-tight">New batch</h1>
      <NewBatchFormView
        savedMapping={saved.mapping}
        shipper={defaultValues({ shipFrom }).shipper}
        owner={{ orgId: org.id, userId: user.id }}
      />
    </div>
  );
}
