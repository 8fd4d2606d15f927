"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { apiFetch } from "@/lib/client/api";
import { isWorking, totalText, waitsForDecision, type BatchWithRowsJson } from "@/lib/client/batch-view";
import { formatCount } from "@/lib/client/format";
import { CancelBatch, ConfirmPurchase, DecideAll, ExportFailed, RetryFailed } from "./batch-actions";
import { BatchFiles } from "./batch-files";
import { BatchProgress } from "./batch-progress";
import { BatchRowsTable } from "./batch-rows-table";
import { BatchStateBadge, batchTitle } from "./batch-state-badge";
import { BatchSummary } from "./batch-summary";
import { BATCH_ROWS_PER_PAGE, batchRowParams, batchRowsQuery, type BatchRowParams } from "./search-params";
import { PageTitle } from "@/components/shell/page-header";

/** How often a working batch is read again: often enough to watch, far below any carrier's pace. */
const POLL_MS = 1_500;

function batchUrl(id: string, params: BatchRowParams): string {
  const q = batchRowsQuery(params);
  const search = new URLSearchParams({ limit: String(q.limit), offset: String(q.offset) });
  if (q.row_state) search.set("row_state", q.row_state.join(","));
  return `/v1/batches/${encodeURIComponent(id)}?${search}`;
}

/**
 * One batch, live: the server renders it first, then the browser reads it again every 1.5 s while it checks or buys
 * rows (react-query polling, no reload), and stops once it waits for the clerk or is done.
 */
export function BatchView({ initial, initialParams }: { initial: BatchWithRowsJson; initialParams: BatchRowParams }) {
  const id = initial.id;
  const [params, setParams] = useQueryStates(batchRowParams, { history: "push" });
  const sameAsServer = params.rows === initialParams.rows && params.page === initialParams.page;
  const { data } = useQuery({
    queryKey: ["batch", id, params.rows, params.page],
    queryFn: ({ signal }) => apiFetch<BatchWithRowsJson>(batchUrl(id, params), { signal }),
    initialData: sameAsServer ? initial : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const now = query.state.data ?? initial;
      return isWorking(now.state) && !waitsForDecision(now) ? POLL_MS : false;
    },
  });
  const batch = data ?? initial;
  const failed = batch.counts.failed;
  const pageCount = Math.max(1, Math.ceil(batch.rows.count / BATCH_ROWS_PER_PAGE));
  const total = totalText(batch);
  const decides = batch.state === "validating" || batch.state === "ready" || batch.state === "purchasing";

  return (
    <div className="grid grid-cols-1 gap-5">
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <PageTitle className="min-w-0 wrap-anywhere">{batchTitle(batch)}</PageTitle>
          <BatchStateBadge state={batch.state} />
        </div>
        <p className="text-sm text-muted-foreground">
          {batch.kind === "print"
            ? "Labels already bought, from selected shipments"
            : batch.source === "csv"
              ? "From a CSV file"
              : "From selected shipments"}
          , created <LocalTime timestamp={batch.created_at} />
        </p>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Progress</CardTitle>
          {/* Announced as it changes: the page is re-read without a reload. */}
          <CardDescription aria-live="polite">{stateSentence(batch, total)}</CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          <BatchProgress batch={batch} />
          <div className="flex flex-wrap gap-2">
            {(batch.state === "completed" || batch.state === "completed_with_errors") && batch.counts.purchased > 0 && (
              <BatchFiles id={id} purchased={batch.counts.purchased} />
            )}
            {batch.state === "completed_with_errors" && <RetryFailed batch={batch} />}
            {failed > 0 && <ExportFailed batch={batch} />}
            {(batch.state === "validating" || batch.state === "ready" || batch.state === "purchasing") && (
              <CancelBatch batch={batch} />
            )}
          </div>
        </CardContent>
      </Card>

      {decides && batch.held > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>Waiting for your decision</CardTitle>
            <CardDescription>
              {formatCount(batch.held)} {batch.held === 1 ? "row is" : "rows are"} priced above the price cap and never
              bought without your approval.
              {batch.state === "purchasing" ? " The batch finishes once each is approved or skipped." : ""}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap items-center gap-2">
            <DecideAll batch={batch} />
            {params.rows !== "held" && (
              <Button variant="ghost" onClick={() => void setParams({ rows: "held", page: null })}>
                Show them
              </Button>
            )}
          </CardContent>
        </Card>
      )}

      {batch.state === "ready" && batch.summary && (
        <Card>
          <CardHeader>
            <CardTitle>Dry run: what the purchase costs</CardTitle>
            <CardDescription>
              {formatCount(batch.counts.rated)} rows priced
              {failed > 0 ? `, ${formatCount(failed)} with problems (listed below, skipped)` : ""}. Nothing is bought
              until you confirm.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4">
            <div className="rounded-lg border">
              <BatchSummary summary={batch.summary} />
            </div>
            <ConfirmPurchase batch={batch} />
          </CardContent>
        </Card>
      )}

      <section aria-labelledby="rows-heading" className="grid grid-cols-1 gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="rows-heading" className="text-lg font-semibold">
            Rows
          </h2>
          <div role="group" aria-label="Which rows" className="flex gap-1">
            <Button
              size="sm"
              variant={params.rows === "all" ? "primary" : "outline"}
              aria-pressed={params.rows === "all"}
              onClick={() => void setParams({ rows: null, page: null })}
            >
              All ({formatCount(batch.row_count)})
            </Button>
            <Button
              size="sm"
              variant={params.rows === "failed" ? "primary" : "outline"}
              aria-pressed={params.rows === "failed"}
              onClick={() => void setParams({ rows: "failed", page: null })}
            >
              With problems ({formatCount(failed)})
            </Button>
            {(batch.held > 0 || params.rows === "held") && (
              <Button
                size="sm"
                variant={params.rows === "held" ? "primary" : "outline"}
                aria-pressed={params.rows === "held"}
                onClick={() => void setParams({ rows: "held", page: null })}
              >
                Waiting ({formatCount(batch.held)})
              </Button>
            )}
          </div>
        </div>
        {batch.rows.results.length > 0 ? (
          <div className="rounded-lg border bg-card">
            <BatchRowsTable rows={batch.rows.results} source={batch.source} decide={decides ? id : null} />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            {params.rows === "failed"
              ? "No row has a problem."
              : params.rows === "held"
                ? "No row waits for a decision."
                : "No rows on this page."}
          </p>
        )}
        {pageCount > 1 && (
          <nav aria-label="Rows pages" className="flex items-center justify-end gap-2 text-sm">
            <Button
              size="sm"
              variant="outline"
              disabled={params.page <= 1}
              onClick={() => void setParams({ page: params.page - 1 })}
            >
              Previous
            </Button>
            <span>
              Page {params.page} of {pageCount}
            </span>
            <Button
              size="sm"
              variant="outline"
              disabled={params.page >= pageCount}
              onClick={() => void setParams({ page: params.page + 1 })}
            >
              Next
            </Button>
          </nav>
        )}
      </section>
    </div>
  );
}

function stateSentence(batch: BatchWithRowsJson, total: string | null): string {
  const n = (count: number, word: string) => `${formatCount(count)} ${word}${count === 1 ? "" : "s"}`;
  switch (batch.state) {
    case "draft":
    case "validating":
      return `Checking and pricing rows: ${n(batch.row_count - batch.counts.queued, "row")} of ${formatCount(batch.row_count)} done.`;
    case "ready":
      return `Ready: ${n(batch.counts.rated, "label")} to buy${total ? ` for ${total}` : ""}.`;
    case "purchasing":
      return waitsForDecision(batch)
        ? `Waiting for your decision on ${n(batch.held, "row")} above the price cap: ${n(batch.counts.purchased, "label")} bought, ${formatCount(batch.counts.failed)} failed.`
        : `Buying: ${n(batch.counts.purchased, "label")} bought, ${formatCount(batch.counts.failed)} failed, of ${formatCount(batch.row_count)}.`;
    case "completed":
      return batch.kind === "print"
        ? `Ready to print: ${n(batch.counts.purchased, "label")}, nothing bought.`
        : `Done: ${n(batch.counts.purchased, "label")} bought.`;
    case "completed_with_errors":
      return `Done: ${n(batch.counts.purchased, "label")} bought, ${n(batch.counts.failed, "row")} failed.`;
    case "cancelled":
      return `Cancelled: ${n(batch.counts.purchased, "label")} bought before it stopped.`;
  }
}
