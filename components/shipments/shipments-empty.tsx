import Link from "next/link";
import { Package } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";
import { CreateLabelLink } from "@/components/shipments/create-label-link";
import { EmptyState } from "@/components/ui/empty-state";
import { InlineCode } from "@/components/ui/inline-code";

/** The list with nothing to show: no shipment at all yet, or none that matches the filters (or on this page). */
export function ShipmentsEmpty({ reason, clearHref }: { reason: "none" | "filtered" | "page"; clearHref: string }) {
  const create = <CreateLabelLink />;
  if (reason === "none") {
    return (
      <EmptyState
        icon={Package}
        title="No shipments yet"
        description={
          <>
            Labels you buy here, or through the API (<InlineCode>POST /v1/shipments</InlineCode>, described at{" "}
            <a className="text-primary underline" href="/v1/openapi.json">
              /v1/openapi.json
            </a>
            ), appear in this list.
          </>
        }
        action={create}
      />
    );
  }
  return (
    <EmptyState
      icon={Package}
      title={reason === "page" ? "This page is past the end of the list" : "No shipments match"}
      description={reason === "page" ? undefined : "Nothing found with this search, status, carrier and dates."}
      action={
        <div className="flex flex-wrap justify-center gap-2">
          <Link href={clearHref} className={buttonVariants({ variant: "outline" })}>
            {reason === "page" ? "Go to the first page" : "Show all shipments"}
          </Link>
          {create}
        </div>
      }
    />
  );
}
