import { FileX } from "lucide-react";
import { DetailCard } from "@/components/shipments/detail/detail-card";
import { LabelPreview } from "@/components/labels/label-preview";
import type { ShipmentStatus } from "@/lib/schemas/shipment";

export interface LabelCardProps {
  shipmentId: string;
  status: ShipmentStatus;
  trackingNumber: string | null;
  /** The label's format while it may be printed, else null. */
  printable: "PDF" | "PNG" | "ZPL" | null;
  /** Whether a label was ever bought (it may since have been voided). */
  bought: boolean;
  zpl: string | null;
}

/** Why there is nothing to print, in the clerk's words. */
function noLabelReason(status: ShipmentStatus, bought: boolean): string {
  if (status === "cancelled") {
    return bought
      ? "The label was voided when the shipment was cancelled. It must not be printed or used: a parcel sent with it may be returned or charged again."
      : "The shipment was cancelled before a label was bought.";
  }
  if (!bought) return "No label has been bought for this shipment yet.";
  return "A cancellation of this shipment lost the carrier's answer, so the label may already be voided: it is withheld until a new attempt to cancel settles it.";
}

export function LabelCard({ shipmentId, status, trackingNumber, printable, bought, zpl }: LabelCardProps) {
  return (
    <DetailCard title="Label">
      {printable ? (
        <LabelPreview shipmentId={shipmentId} type={printable} trackingNumber={trackingNumber} zpl={zpl} />
      ) : (
        <div className="flex gap-3 rounded-md border border-dashed p-4 text-sm">
          <FileX aria-hidden className="size-5 shrink-0 text-muted-foreground" />
          <p>{noLabelReason(status, bought)}</p>
        </div>
      )}
    </DetailCard>
  );
}
