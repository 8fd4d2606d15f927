import {
  AlertTriangle,
  Ban,
  CircleCheck,
  CircleDashed,
  OctagonAlert,
  PackageCheck,
  PackageX,
  Truck,
  Navigation,
} from "lucide-react";
import { StatusBadge, type StatusDisplay } from "@/components/ui/status-badge";
import type { ShipmentStatus } from "@/lib/schemas/shipment";

/** How each status reads to a clerk; a Record, so a new status in SHIPMENT_STATUSES fails to compile until named. */
export const SHIPMENT_STATUS_DISPLAY: Record<ShipmentStatus, StatusDisplay> = {
  created: { label: "Draft", tone: "neutral", icon: CircleDashed },
  purchased: { label: "Purchased", tone: "info", icon: PackageCheck },
  in_transit: { label: "In transit", tone: "info", icon: Truck },
  out_for_delivery: { label: "Out for delivery", tone: "info", icon: Navigation },
  delivered: { label: "Delivered", tone: "success", icon: CircleCheck },
  needs_attention: { label: "Needs attention", tone: "warning", icon: AlertTriangle },
  delivery_failed: { label: "Delivery failed", tone: "danger", icon: OctagonAlert },
  lost: { label: "Lost", tone: "danger", icon: PackageX },
  cancelled: { label: "Cancelled", tone: "neutral", icon: Ban },
};

/** A shipment's status as icon and words (never colour alone). */
export function ShipmentStatusBadge({ status, className }: { status: ShipmentStatus; className?: string }) {
  return <StatusBadge status={status} display={SHIPMENT_STATUS_DISPLAY[status]} className={className} />;
}
