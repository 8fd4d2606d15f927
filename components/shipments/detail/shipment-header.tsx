import { TestBadge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { ShipmentStatusBadge } from "@/components/shipments/shipment-status-badge";
import { CopyButton } from "@/components/forms/copy-button";
import { recipientName } from "@/lib/client/format";
import type { Shipment } from "@/lib/schemas/shipment";
import { PageTitle } from "@/components/shell/page-header";

/** What a clerk reads about the price of a label voided by a refund request (docs/api.md, "Refunds"). */
const REFUND_WORDS: Record<NonNullable<Shipment["refund"]>["status"], string> = {
  pending: "Requested, waiting for the carrier",
  refunded: "Refunded",
  refused: "Refused by the carrier",
};

/** Who it goes to, its state, the tracking number to read out on the phone, and when it was made and bought. */
export function ShipmentHeader({
  shipment,
  purchasedAt,
  actions,
}: {
  shipment: Omit<Shipment, "label">;
  purchasedAt: Date | null;
  actions: React.ReactNode;
}) {
  const to = recipientName(shipment.recipient, "an unnamed recipient");
  const place = [shipment.recipient.city, shipment.recipient.country_code].filter(Boolean).join(", ");
  return (
    <header className="grid gap-4">
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <PageTitle>
            Shipment to {to}
            {place && <span className="font-normal text-muted-foreground"> · {place}</span>}
          </PageTitle>
          <ShipmentStatusBadge status={shipment.status} />
          {shipment.test_mode && <TestBadge />}
        </div>
        <dl className="flex flex-wrap items-center gap-x-6 gap-y-1 text-sm">
          <div className="flex items-center gap-1.5">
            <dt className="text-muted-foreground">Tracking number</dt>
            <dd className="flex items-center gap-0.5">
              {shipment.tracking_number ? (
                <>
                  <span className="font-mono font-medium">{shipment.tracking_number}</span>
                  <CopyButton value={shipment.tracking_number} label="Tracking number" />
                  {shipment.status === "cancelled" && <span className="text-muted-foreground">(label voided)</span>}
                </>
              ) : (
                <span>None yet</span>
              )}
            </dd>
          </div>
          {shipment.reference && (
            <div className="flex gap-1.5">
              <dt className="text-muted-foreground">Reference</dt>
              <dd className="font-medium break-all">{shipment.reference}</dd>
            </div>
          )}
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Created</dt>
            <dd>
              <LocalTime timestamp={shipment.created_at} />
            </dd>
          </div>
          {shipment.refund && (
            <div className="flex gap-1.5">
              <dt className="text-muted-foreground">Refund</dt>
              <dd>
                <span className="font-medium">{REFUND_WORDS[shipment.refund.status]}</span>
                {shipment.refund.reference && (
                  <span className="text-muted-foreground"> · request {shipment.refund.reference}</span>
                )}
              </dd>
            </div>
          )}
          {purchasedAt && (
            <div className="flex gap-1.5">
              <dt className="text-muted-foreground">Label bought</dt>
              <dd>
                <LocalTime timestamp={purchasedAt.toISOString()} />
              </dd>
            </div>
          )}
        </dl>
      </div>
      {actions}
    </header>
  );
}
