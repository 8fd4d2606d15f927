import { PackageSearch } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

/** An unknown or withdrawn share link: said kindly, with no way into the dashboard. */
export default function TrackingNotFound() {
  return (
    <EmptyState
      titleAs="h1"
      icon={PackageSearch}
      title="We can't find this parcel"
      description="The tracking link may be mistyped, or the sender has stopped sharing it. Ask the sender for a new link."
    />
  );
}
