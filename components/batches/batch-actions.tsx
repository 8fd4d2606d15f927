"use client";

import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Ban, Check, FileDown, RotateCcw, ShoppingCart, SkipForward } from "lucide-react";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { downloadLabelFile } from "@/components/labels/print-label";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { apiFetch } from "@/lib/client/api";
import { labelsToBuy, totalText } from "@/lib/client/batch-view";
import { formatCount } from "@/lib/client/format";
import type { Batch, BatchRowOut } from "@/lib/schemas/batch";

/** After an act, the batch is read again (and polled while it works). */
function useBatchAct(id: string, path: "purchase" | "retry" | "cancel", success: string) {
  const queryClient = useQueryClient();
  return useApiMutation<{ include_held?: boolean } | void, Batch>({
    request: (body) =>
      apiFetch<Batch>(`/v1/batches/${encodeURIComponent(id)}/${path}`, {
        method: "POST",
        ...(path === "purchase" ? { body: body ?? {} } : {}),
      }),
    success,
    refresh: false,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["batch", id] }),
  });
}

/**
 * Confirm: the one button that buys, with the count and the total on it. It locks while the request is out, and the
 * API refuses a second confirmation (409), so a double click buys once.
 */
export function ConfirmPurchase({ batch }: { batch: Batch }) {
  const [includeHeld, setIncludeHeld] = useState(false);
  const buy = useBatchAct(batch.id, "purchase", "Buying the labels.");
  const count = labelsToBuy(batch, includeHeld);
  const total = totalText(batch);
  return (
    <div className="grid gap-3">
      {batch.held > 0 && (
        <div className="flex items-center gap-2">
          <Checkbox id="include-held" checked={includeHeld} onCheckedChange={(c) => setIncludeHeld(c === true)} />
          <Label htmlFor="include-held" className="font-normal">
            Also buy the {formatCount(batch.held)} {batch.held === 1 ? "row" : "rows"} above the price cap (not in the
            total)
          </Label>
        </div>
      )}
      <div>
        <Button
          disabled={count === 0}
          loading={buy.isPending}
          onClick={() => buy.mutate(includeHeld ? { include_held: true } : undefined)}
        >
          <ShoppingCart aria-hidden />
          {count === 0
            ? "Nothing to buy"
            : `Buy ${formatCount(count)} ${count === 1 ? "label" : "labels"}${total && !includeHeld ? ` for ${total}` : ""}`}
        </Button>
      </div>
    </div>
  );
}

export function CancelBatch({ batch }: { batch: Batch }) {
  const cancel = useBatchAct(batch.id, "cancel", "Batch cancelled.");
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline">
          <Ban aria-hidden />
          Cancel batch
        </Button>
      }
      title="Cancel this batch?"
      description={
        batch.state === "purchasing"
          ? "Rows not bought yet are not bought. Labels already bought stay bought: void them from their shipments if they will not be used."
          : "Nothing has been bought. The batch stays in the list, cancelled."
      }
      confirmLabel="Cancel batch"
      cancelLabel="Keep it"
      onConfirm={async () => {
        await cancel.mutateAsync(undefined);
      }}
    />
  );
}

export function RetryFailed({ batch }: { batch: Batch }) {
  const retry = useBatchAct(batch.id, "retry", "Trying the failed rows again.");
  return (
    <Button variant="outline" loading={retry.isPending} onClick={() => retry.mutate(undefined)}>
      <RotateCcw aria-hidden />
      Retry failed rows
    </Button>
  );
}

/** The failed rows as CSV (line, code, column, message, carrier text, then the row as given), to fix and upload again. */
export function ExportFailed({ batch }: { batch: Batch }) {
  const queryClient = useQueryClient();
  const url = `/v1/batches/${encodeURIComponent(batch.id)}/failed.csv`;
  const exportCsv = useApiMutation({
    request: () => {
      queryClient.removeQueries({ queryKey: ["label-file", url] });
      return downloadLabelFile(queryClient, url);
    },
    failureTitle: "The failed rows could not be exported.",
    refresh: false,
  });
  return (
    <Button variant="outline" loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
      <FileDown aria-hidden />
      Export failed rows as CSV
    </Button>
  );
}

type Decision = "approve" | "skip";

/** POST /v1/batches/{id}/decisions for some lines, then the batch read again. */
function useDecide(id: string, success: (decision: Decision, lines: number[]) => string) {
  const queryClient = useQueryClient();
  return useApiMutation<{ decision: Decision; lines: number[] | "all" }, Batch>({
    request: async ({ decision, lines }) =>
      apiFetch<Batch>(`/v1/batches/${encodeURIComponent(id)}/decisions`, {
        method: "POST",
        body: { decision, lines: lines === "all" ? await waitingLines(id) : lines },
      }),
    success: (batch, { decision, lines }) =>
      success(decision, lines === "all" ? [] : lines) + (batch.state === "purchasing" ? " Buying goes on." : ""),
    refresh: false,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["batch", id] }),
  });
}

/** Every line waiting for a decision (the API's pages of 1 000), for "approve all" and "skip all". */
async function waitingLines(id: string): Promise<number[]> {
  const lines: number[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await apiFetch<{ rows: { results: BatchRowOut[]; next: string | null } }>(
      `/v1/batches/${encodeURIComponent(id)}?row_state=needs_decision&limit=1000&offset=${offset}`,
    );
    lines.push(...page.rows.results.map((r) => r.line));
    if (!page.rows.next || page.rows.results.length === 0) return lines;
  }
}

/** Approve or skip one row waiting above the price cap, from its row in the table. */
export function DecideRow({ batchId, line }: { batchId: string; line: number }) {
  const decide = useDecide(batchId, (d, [l]) => `Line ${l} ${d === "approve" ? "approved" : "skipped"}.`);
  const pending = decide.isPending ? decide.variables?.decision : null;
  return (
    <div className="flex gap-1">
      <Button
        size="sm"
        variant="outline"
        loading={pending === "approve"}
        disabled={decide.isPending}
        onClick={() => decide.mutate({ decision: "approve", lines: [line] })}
      >
        <Check aria-hidden />
        Approve<span className="sr-only"> line {line}</span>
      </Button>
      <Button
        size="sm"
        variant="ghost"
        loading={pending === "skip"}
        disabled={decide.isPending}
        onClick={() => decide.mutate({ decision: "skip", lines: [line] })}
      >
        <SkipForward aria-hidden />
        Skip<span className="sr-only"> line {line}</span>
      </Button>
    </div>
  );
}

/** Every row waiting above the price cap at once: approved at their prices, or skipped (never bought). */
export function DecideAll({ batch }: { batch: Batch }) {
  const decide = useDecide(batch.id, (d) =>
    d === "approve" ? "Every waiting row approved." : "Every waiting row skipped.",
  );
  const rows = `${formatCount(batch.held)} ${batch.held === 1 ? "row" : "rows"}`;
  return (
    <div className="flex flex-wrap gap-2">
      <ConfirmDialog
        trigger={
          <Button variant="outline" disabled={decide.isPending}>
            <Check aria-hidden />
            Approve all ({formatCount(batch.held)})
          </Button>
        }
        title={`Approve ${rows} above the price cap?`}
        description={
          batch.state === "purchasing"
            ? "Each is bought at the price shown in its row, with the rest of the batch."
            : "Each is bought at the price shown in its row when you confirm the batch."
        }
        confirmLabel="Approve all"
        cancelLabel="Not now"
        destructive={false}
        onConfirm={async () => {
          await decide.mutateAsync({ decision: "approve", lines: "all" });
        }}
      />
      <Button
        variant="ghost"
        loading={decide.isPending && decide.variables?.decision === "skip"}
        disabled={decide.isPending}
        onClick={() => decide.mutate({ decision: "skip", lines: "all" })}
      >
        <SkipForward aria-hidden />
        Skip all
      </Button>
    </div>
  );
}
