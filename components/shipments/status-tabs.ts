import type { ShipmentStatus } from "@/lib/schemas/shipment";

/**
 * The list's tabs and the statuses each one shows. Every status belongs to exactly one tab besides "All", so the
 * tabs' counts add up to the total:
 * - Draft: `created` (rated, no label yet).
 * - Purchased: `purchased` (label bought, the carrier has not scanned it).
 * - In transit: `in_transit` and `out_for_delivery` (moving; the badge tells which).
 * - Needs attention: `needs_attention` (held, returned, address problems), `delivery_failed` and `lost` (a claim to
 *   file, a parcel to send again): a clerk must act.
 *   A purchase whose answer was lost stays in its status (Draft) and says so in its messages: counting those here
 *   would need a second query over `meta`, and the list could not filter by it.
 * - Delivered, Cancelled: one status each.
 */
export const SHIPMENT_TABS = {
  all: { label: "All", statuses: null },
  draft: { label: "Draft", statuses: ["created"] },
  purchased: { label: "Purchased", statuses: ["purchased"] },
  in_transit: { label: "In transit", statuses: ["in_transit", "out_for_delivery"] },
  delivered: { label: "Delivered", statuses: ["delivered"] },
  attention: { label: "Needs attention", statuses: ["needs_attention", "delivery_failed", "lost"] },
  cancelled: { label: "Cancelled", statuses: ["cancelled"] },
} as const satisfies Record<string, { label: string; statuses: readonly ShipmentStatus[] | null }>;

export type ShipmentTab = keyof typeof SHIPMENT_TABS;
export const SHIPMENT_TAB_KEYS = Object.keys(SHIPMENT_TABS) as [ShipmentTab, ...ShipmentTab[]];

/** A tab's count from the per-status counts. */
export function tabCount(tab: ShipmentTab, counts: Record<ShipmentStatus, number>): number {
  const statuses: readonly ShipmentStatus[] = SHIPMENT_TABS[tab].statuses ?? (Object.keys(counts) as ShipmentStatus[]);
  return statuses.reduce((sum, s) => sum + counts[s], 0);
}
