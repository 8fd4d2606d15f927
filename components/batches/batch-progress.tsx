import { formatCount } from "@/lib/client/format";
import { progressOf } from "@/lib/client/batch-view";
import type { Batch } from "@/lib/schemas/batch";
import { ROW_STATE_LABELS } from "./batch-state-badge";

const ORDER = ["queued", "rated", "purchasing", "purchased", "failed"] as const;

/** Rows per state and a bar of how far the batch has come; the counts are re-read while the batch works. */
export function BatchProgress({ batch }: { batch: Batch }) {
  const percent = progressOf(batch);
  const checking = batch.state === "draft" || batch.state === "validating" || batch.state === "ready";
  const label = checking ? "Rows checked" : "Rows settled";
  return (
    <div className="grid gap-3">
      <div className="grid gap-1">
        <div className="flex justify-between text-sm">
          <span id="batch-progress-label">{label}</span>
          <span className="tabular-nums">{percent}%</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby="batch-progress-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <dl className="grid grid-cols-3 gap-2 sm:grid-cols-6">
        <div className="rounded-md border p-2">
          <dt className="text-xs text-muted-foreground">Rows</dt>
          <dd className="text-lg font-semibold tabular-nums">{formatCount(batch.row_count)}</dd>
        </div>
        {ORDER.map((s) => (
          <div key={s} className="rounded-md border p-2" data-count={s}>
            <dt className="text-xs text-muted-foreground">{ROW_STATE_LABELS[s]}</dt>
            <dd className="text-lg font-semibold tabular-nums">{formatCount(batch.counts[s])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
