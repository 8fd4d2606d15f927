/** docs/api.md, "Batches": a batch's life, from its rows stored to every row settled. */
export const BATCH_STATES = [
  "draft",
  "validating",
  "ready",
  "purchasing",
  "completed",
  "completed_with_errors",
  "cancelled",
] as const;

/**
 * One row's life: queued (stored) → rated (the dry run passed) → purchasing → purchased, or failed at any step. A row
 * whose rate is above the policy's price cap waits in needs_decision: approved, it is rated (and bought at that
 * price); skipped, it is skipped and never bought.
 */
export const BATCH_ROW_STATES = [
  "queued",
  "rated",
  "needs_decision",
  "skipped",
  "purchasing",
  "purchased",
  "failed",
] as const;
