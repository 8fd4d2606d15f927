import type { TrackerStatus } from "@/lib/carriers/types";
import { KARRIO_TRACKING_STATUS } from "./status-codes";

/**
 * Canada Post event identifiers to our statuses (docs/canadapost.md, "Tracking"); status.test.ts holds the table to
 * the list in status-codes.ts, code by code. Canada Post zero-pads identifiers ("0174") and a hand-kept table may
 * not, so both sides are normalized (trimmed, leading zeros dropped) before the lookup.
 *
 * Additions to karrio's reading, each with its reason:
 * - 1300 and 3000 (the shipment created, electronic information received; the emulator's first event): `pending`:
 *   a label exists, the parcel is not with Canada Post yet;
 * - 20 (signature image recorded) says nothing new about the parcel: it keeps the status of the event before it
 *   (`null` here; tracking.ts reads the next older event).
 */
const ADDITIONS: readonly (readonly [string, TrackerStatus | null])[] = [
  ["1300", "pending"],
  ["3000", "pending"],
  ["20", null],
];

/** `" 0174 "` → `"174"`; `"0"`/`"000"` → `"0"`. */
export function normalizeEventIdentifier(id: string): string {
  const trimmed = id.trim();
  return trimmed.replace(/^0+(?=.)/, "");
}

export const CANADAPOST_STATUS_BY_EVENT: ReadonlyMap<string, TrackerStatus | null> = new Map<
  string,
  TrackerStatus | null
>([
  ...Object.entries(KARRIO_TRACKING_STATUS).flatMap(([status, codes]) =>
    (codes ?? []).map((c): [string, TrackerStatus] => [normalizeEventIdentifier(c), status as TrackerStatus]),
  ),
  ...ADDITIONS,
]);

/** The status an event says, null for one that says none (20), `in_transit` for any other identifier. */
export function canadapostStatus(eventIdentifier: string | null): TrackerStatus | null {
  if (!eventIdentifier?.trim()) return "unknown";
  const key = normalizeEventIdentifier(eventIdentifier);
  return CANADAPOST_STATUS_BY_EVENT.has(key) ? CANADAPOST_STATUS_BY_EVENT.get(key)! : "in_transit";
}
