import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { BatchView } from "@/components/batches/batch-view";
import { batchRowsQuery, loadBatchRowParams } from "@/components/batches/search-params";
import { getBatch } from "@/lib/batches/manage-batch";
import { requireSession } from "@/lib/dashboard/session";
import { NotFoundError } from "@/lib/errors";

export const metadata: Metadata = { title: "Batch" };

const BATCH_ID = /^bat_[0-9a-f]{32}$/;

export default async function BatchPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { id } = await params;
  const { ctx } = await requireSession();
  if (!BATCH_ID.test(id)) notFound();
  const rowParams = await loadBatchRowParams(searchParams);
  const found = await getBatch({ ctx, id, query: batchRowsQuery(rowParams) }).catch((err) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
  if (!found) notFound();
  const { batch, count, rows } = found;
  // The JSON GET /v1/batches/{id} answers, so the browser's polling takes over from it unchanged.
  const initial = { ...batch, rows: { count, next: null, previous: null, results: rows } };
  return <BatchView initial={initial} initialParams={rowParams} />;
}
