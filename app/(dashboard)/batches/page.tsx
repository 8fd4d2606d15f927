import type { Metadata } from "next";
import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { Layers, Upload } from "lucide-react";
import { BatchesTable } from "@/components/batches/batches-table";
import { BATCHES_PER_PAGE, batchListUrl, loadBatchListParams } from "@/components/batches/search-params";
import { buttonVariants } from "@/components/ui/button-variants";
import { EmptyState } from "@/components/ui/empty-state";
import { listBatches } from "@/lib/batches/manage-batch";
import { requireSession } from "@/lib/dashboard/session";
import { PageHeader } from "@/components/shell/page-header";
import { ListResults } from "@/components/lists/list-results";

export const metadata: Metadata = { title: "Batches" };

export default async function BatchesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { ctx } = await requireSession();
  const { page } = await loadBatchListParams(searchParams);
  const list = await listBatches({
    ctx,
    filters: { limit: BATCHES_PER_PAGE, offset: (Math.max(1, page) - 1) * BATCHES_PER_PAGE },
  });
  const upload = (
    <Link href="/batches/new" className={buttonVariants()}>
      <Upload aria-hidden />
      Upload CSV
    </Link>
  );
  return (
    <div className="grid grid-cols-1 gap-5">
      <PageHeader title="Batches" action={upload} />
      <ListResults
        count={list.count}
        noun={["batch", "batches"]}
        hasRows={list.results.length > 0}
        page={page}
        pageCount={Math.ceil(list.count / BATCHES_PER_PAGE)}
        href={(p) => batchListUrl("/batches", { page: p })}
        empty={
          <EmptyState
            icon={Layers}
            title={list.count > 0 ? "This page is past the end of the list" : "No batches yet"}
            description="A batch buys many labels at once: upload a CSV of orders, or select shipments in the Shipments list and choose Buy labels. Every row is checked and priced before anything is bought."
            action={upload}
          />
        }
      >
        <BatchesTable batches={list.results} />
      </ListResults>
    </div>
  );
}
