import {
  AlertTriangle,
  Ban,
  CircleCheck,
  CircleDashed,
  CircleHelp,
  Clock,
  Navigation,
  OctagonAlert,
  PackageCheck,
  PackageX,
  Store,
  Truck,
  Undo2,
} from "lucide-react";
import { StatusBadge, type StatusDisplay } from "@/components/ui/status-badge";
import type { TrackerStatus } from "@/lib/carriers/types";

/** How each tracker status reads; a Record, so a new status fails to compile until named. */
export const TRACKER_STATUS_DISPLAY: Record<TrackerStatus, StatusDisplay> = {
  pending: { label: "Label created", tone: "neutral", icon: CircleDashed },
  picked_up: { label: "Picked up", tone: "info", icon: PackageCheck },
  in_transit: { label: "In transit", tone: "info", icon: Truck },
  out_for_delivery: { label: "Out for delivery", tone: "info", icon: Navigation },
  delivered: { label: "Delivered", tone: "success", icon: CircleCheck },
  on_hold: { label: "On hold", tone: "warning", icon: AlertTriangle },
  delivery_delayed: { label: "Delivery delayed", tone: "warning", icon: Clock },
  delivery_failed: { label: "Delivery failed", tone: "danger", icon: OctagonAlert },
  ready_for_pickup: { label: "Ready for pickup", tone: "warning", icon: Store },
  return_to_sender: { label: "Returning to sender", tone: "danger", icon: Undo2 },
  lost: { label: "Lost", tone: "danger", icon: PackageX },
  cancelled: { label: "Cancelled", tone: "neutral", icon: Ban },
  unknown: { label: "Unknown", tone: "neutral", icon: CircleHelp },
};

/** A tracker's status as icon and words (never colour alone). */
export function TrackerStatusBadge({ status, className }: { status: TrackerStatus; className?: string }) {
  return <StatusBadge status={status} display={TRACKER_STATUS_DISPLAY[status]} className={className} />;
}
