import Link from "next/link";
import { SearchX } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";
import { EmptyState } from "@/components/ui/empty-state";

/** Unknown dashboard addresses and records of another organization (or none) land here, inside the navigation. */
export default function DashboardNotFound() {
  return (
    <EmptyState
      titleAs="h1"
      icon={SearchX}
      title="Not found"
      description="There is nothing at this address, or it belongs to another organization."
      action={
        <Link href="/shipments" className={buttonVariants({ variant: "outline" })}>
          Go to shipments
        </Link>
      }
    />
  );
}
