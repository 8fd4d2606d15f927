"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Ban } from "lucide-react";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { forgetLabelFiles } from "@/components/labels/print-label";
import { CarrierMessages } from "@/components/carriers/carrier-messages";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import { problemText } from "@/lib/client/problems";
import type { Message } from "@/lib/schemas/message";

export interface CancelShipmentDialogProps {
  shipmentId: string;
  /** Purchased: the label is voided at the carrier. Created: only our record is closed. */
  voidsLabel: boolean;
  trackingNumber: string | null;
  carrierName: string | null;
  /** "$12.34": what the clerk paid for the label, named in the dialog. */
  amount: string | null;
  /** The carrier's messages once it agreed (a warning when it cannot void, a note when already voided). */
  onCancelled: (messages: Message[]) => void;
}

interface CancelAnswer {
  messages: Message[];
  shipment: { status: string };
}

/**
 * Cancel / void behind a dialog that names the act. When the carrier refuses, its messages are shown inside the
 * dialog, which stays open; when it agrees, the caller shows them (this button is gone once the page refreshes).
 */
export function CancelShipmentDialog({
  shipmentId,
  voidsLabel,
  trackingNumber,
  carrierName,
  amount,
  onCancelled,
}: CancelShipmentDialogProps) {
  const queryClient = useQueryClient();
  const act = voidsLabel ? `Void label ${trackingNumber ?? ""}`.trim() : "Cancel shipment";
  const cancel = useApiMutation({
    request: () => apiFetch<CancelAnswer>(`/v1/shipments/${encodeURIComponent(shipmentId)}/cancel`, { method: "POST" }),
    success: voidsLabel ? `Label ${trackingNumber ?? ""} voided.` : "Shipment cancelled.",
    failure: "caller",
    onSuccess: (res) => {
      forgetLabelFiles(queryClient);
      onCancelled(res.messages);
    },
  });
  const problem = cancel.error;
  const carrierSaid = problem instanceof ApiProblem ? problem.messages : [];
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline">
          <Ban aria-hidden />
          {voidsLabel ? "Void label" : "Cancel shipment"}
        </Button>
      }
      title={voidsLabel ? `Void label ${trackingNumber ?? ""}?` : "Cancel this shipment?"}
      description={
        voidsLabel
          ? `${carrierName ?? "The carrier"} is asked to void the label${amount ? ` bought for ${amount}` : ""}. ` +
            "Once voided it must not be used: a parcel sent with it may be returned or charged again. Refunds follow " +
            "the carrier's rules; some carriers refund only days later."
          : "No label has been bought for it. The shipment is closed and can no longer be bought."
      }
      confirmLabel={act}
      cancelLabel="Keep it"
      onConfirm={async () => {
        cancel.reset();
        await cancel.mutateAsync();
      }}
    >
      {problem ? (
        <div role="alert" className="grid gap-2">
          <p className="text-sm text-destructive">
            {carrierSaid.length > 0
              ? `${carrierName ?? "The carrier"} did not cancel it; nothing changed. Its answer:`
              : problemText(problem)}
          </p>
          <CarrierMessages messages={carrierSaid} />
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
