"use client";

import { useState } from "react";
import { SHIPMENT_STATUS_DISPLAY } from "@/components/shipments/shipment-status-badge";
import { LabelActions } from "@/components/shipments/detail/label-actions";
import { CancelShipmentDialog } from "@/components/shipments/detail/cancel-shipment-dialog";
import { CarrierMessages } from "@/components/carriers/carrier-messages";
import type { Message } from "@/lib/schemas/message";
import type { ShipmentStatus } from "@/lib/schemas/shipment";

export interface ShipmentActionsProps {
  shipmentId: string;
  status: ShipmentStatus;
  /** The label's format while it may be printed; null before purchase, once voided, or while a void is in doubt. */
  printable: "PDF" | "PNG" | "ZPL" | null;
  trackingNumber: string | null;
  carrierName: string | null;
  amount: string | null;
  /** Where this person's paper for printing is kept in the browser (printPaperKey). */
  paperKey: string;
}

/**
 * The page's buttons. Rendered for every status so the carrier's answer to a cancellation stays on screen after the
 * page refreshes to show the cancelled shipment.
 */
export function ShipmentActions({
  shipmentId,
  status,
  printable,
  trackingNumber,
  carrierName,
  amount,
  paperKey,
}: ShipmentActionsProps) {
  const [answer, setAnswer] = useState<Message[]>([]);
  const cancellable = status === "created" || status === "purchased";
  if (!printable && !cancellable && status === "cancelled" && answer.length === 0) return null;
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        {printable && <LabelActions shipmentId={shipmentId} type={printable} paperKey={paperKey} />}
        {cancellable && (
          <CancelShipmentDialog
            shipmentId={shipmentId}
            voidsLabel={status === "purchased"}
            trackingNumber={trackingNumber}
            carrierName={carrierName}
            amount={amount}
            onCancelled={setAnswer}
          />
        )}
      </div>
      {!cancellable && status !== "cancelled" && (
        <p className="text-sm text-muted-foreground">
          The carrier already has the parcel ({SHIPMENT_STATUS_DISPLAY[status].label.toLowerCase()}), so the label can
          no longer be voided.
        </p>
      )}
      {answer.length > 0 && (
        <div role="status" className="w-full max-w-xl">
          <CarrierMessages messages={answer} />
        </div>
      )}
    </div>
  );
}
