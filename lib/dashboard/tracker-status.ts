import type { TrackerStatus } from "@/lib/carriers/types";

/**
 * The trackers list's tabs and the statuses each one shows. "All" shows every status; `ready_for_pickup`,
 * `cancelled` and `unknown` belong to no other tab (a parcel waiting at a counter, a voided label, a number the
 * carrier has not reported), so the other tabs' counts need not add up to All's.
 */
export const TRACKER_TABS = {
  in_transit: { label: "In transit", statuses: ["pending", "picked_up", "in_transit"] },
  out_for_delivery: { label: "Out for delivery", statuses: ["out_for_delivery"] },
  delivered: { label: "Delivered", statuses: ["delivered"] },
  exceptions: {
    label: "Exceptions",
    statuses: ["on_hold", "delivery_delayed", "delivery_failed", "return_to_sender", "lost"],
  },
  all: { label: "All", statuses: null },
} as const satisfies Record<string, { label: string; statuses: readonly TrackerStatus[] | null }>;

export type TrackerTab = keyof typeof TRACKER_TABS;
export const TRACKER_TAB_KEYS = Object.keys(TRACKER_TABS) as [TrackerTab, ...TrackerTab[]];

/** A tab's count from the per-status counts (countTrackersByStatus). */
export function trackerTabCount(tab: TrackerTab, counts: Record<TrackerStatus, number>): number {
  const statuses: readonly TrackerStatus[] = TRACKER_TABS[tab].statuses ?? (Object.keys(counts) as TrackerStatus[]);
  return statuses.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
}

/** The journey every parcel makes, as the progress bar shows it. */
export const PROGRESS_STEPS = ["Label created", "Picked up", "In transit", "Out for delivery", "Delivered"] as const;

const STEP_OF: Partial<Record<TrackerStatus, number>> = {
  pending: 0,
  picked_up: 1,
  in_transit: 2,
  out_for_delivery: 3,
  delivered: 4,
};

export interface Progress {
  /** Index into PROGRESS_STEPS of the furthest step the parcel has reached. */
  reached: number;
  /** The current status when it is off the usual journey (held, delayed, failed, returning, …), else null. */
  detour: TrackerStatus | null;
}

/**
 * How far along the journey a parcel is: the furthest usual step among its events and its status (a parcel held
 * after pickup stays "picked up", not "label created"), with the status as a detour when it is none of those steps.
 */
export function trackerProgress(status: TrackerStatus, eventStatuses: readonly TrackerStatus[]): Progress {
  const reached = Math.max(0, ...[status, ...eventStatuses].map((s) => STEP_OF[s] ?? 0));
  const onJourney = STEP_OF[status] !== undefined || status === "unknown";
  return { reached: status === "delivered" ? 4 : reached, detour: onJourney ? null : status };
}
