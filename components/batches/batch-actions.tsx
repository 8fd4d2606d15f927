"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Ban, FileDown, RotateCcw, ShoppingCart } from "lucide-react";
import { toast } from "sonner";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { downloadLabelFile } from "@/components/labels/print-label";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { apiFetch } from "@/lib/client/api";
import { labelsToBuy, totalText } from "@/lib/client/batch-view";
import { formatCount } from "@/lib/client/format";
import type { Batch } from "@/lib/schemas/batch";

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
  const exportCsv = useMutation({
    mutationFn: () => {
      queryClient.removeQueries({ queryKey: ["label-file", url] });
      return downloadLabelFile(queryClient, url);
    },
    onError: (err) => toast.error("The failed rows could not be exported.", { description: err.message }),
  });
  return (
    <Button variant="outline" loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
      <FileDown aria-hidden />
      Export failed rows as CSV
    </Button>
  );
}
