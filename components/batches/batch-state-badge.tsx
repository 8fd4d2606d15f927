import { Ban, CircleCheck, CircleDashed, Loader2, OctagonAlert, ShoppingCart, TriangleAlert } from "lucide-react";
import { StatusBadge, type StatusDisplay } from "@/components/ui/status-badge";
import type { Batch } from "@/lib/schemas/batch";

/** How each batch state reads to a clerk; a Record, so a new state in BATCH_STATES fails to compile until named. */
const BATCH_STATE_DISPLAY: Record<Batch["state"], StatusDisplay> = {
  draft: { label: "Draft", tone: "neutral", icon: CircleDashed },
  validating: { label: "Checking rows", tone: "info", icon: Loader2 },
  ready: { label: "Ready to buy", tone: "info", icon: ShoppingCart },
  purchasing: { label: "Buying", tone: "info", icon: Loader2 },
  completed: { label: "Completed", tone: "success", icon: CircleCheck },
  completed_with_errors: { label: "Completed with errors", tone: "warning", icon: TriangleAlert },
  cancelled: { label: "Cancelled", tone: "neutral", icon: Ban },
};

/** How each row state reads (the rows table and the progress counts). */
export const ROW_STATE_LABELS: Record<keyof Batch["counts"], string> = {
  // Not "Waiting": that is a row above the price cap, waiting for a person.
  queued: "To check",
  rated: "Priced",
  needs_decision: "Needs a decision",
  skipped: "Skipped",
  purchasing: "Buying",
  purchased: "Bought",
  failed: "Failed",
};

export const ROW_STATE_DISPLAY: Record<keyof Batch["counts"], StatusDisplay> = {
  queued: { label: ROW_STATE_LABELS.queued, tone: "neutral", icon: CircleDashed },
  rated: { label: ROW_STATE_LABELS.rated, tone: "info", icon: ShoppingCart },
  needs_decision: { label: ROW_STATE_LABELS.needs_decision, tone: "warning", icon: TriangleAlert },
  skipped: { label: ROW_STATE_LABELS.skipped, tone: "neutral", icon: Ban },
  purchasing: { label: ROW_STATE_LABELS.purchasing, tone: "info", icon: Loader2 },
  purchased: { label: ROW_STATE_LABELS.purchased, tone: "success", icon: CircleCheck },
  failed: { label: ROW_STATE_LABELS.failed, tone: "danger", icon: OctagonAlert },
};

export function BatchStateBadge({ state }: { state: Batch["state"] }) {
  return <StatusBadge status={state} display={BATCH_STATE_DISPLAY[state]} />;
}

/** A batch by its name: the file it came from, or how many shipments were chosen. */
export function batchTitle(batch: Pick<Batch, "filename" | "source" | "row_count" | "kind">): string {
  if (batch.filename) return batch.filename;
  if (batch.kind === "print") return `Print run: ${batch.row_count} ${batch.row_count === 1 ? "label" : "labels"}`;
  return batch.source === "shipments"
    ? `${batch.row_count} selected ${batch.row_count === 1 ? "shipment" : "shipments"}`
    : "CSV upload";
}
