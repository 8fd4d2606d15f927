import { LayoutDashboard } from "lucide-react";
import { CreateLabelLink } from "@/components/shipments/create-label-link";
import { EmptyState } from "@/components/ui/empty-state";

/** A new organization: nothing to count yet, and the one thing to do next. */
export function OverviewEmpty() {
  return (
    <EmptyState
      icon={LayoutDashboard}
      title="No labels yet"
      description="Once you buy labels, this page shows what they cost per day, carrier and service, how many parcels are on their way, which ones need attention and how often they arrive on time. Start with a sandbox label: it costs nothing."
      action={<CreateLabelLink />}
    />
  );
}
