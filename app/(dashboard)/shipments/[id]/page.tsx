import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AddressCard } from "@/components/shipments/detail/address-card";
import { CarrierMessages } from "@/components/carriers/carrier-messages";
import { CustomsCard } from "@/components/shipments/detail/customs-card";
import { DocumentsCard } from "@/components/shipments/detail/documents-card";
import { LabelCard } from "@/components/shipments/detail/label-card";
import { loadShipmentDetail } from "@/components/shipments/detail/load-detail";
import { ParcelsCard } from "@/components/shipments/detail/parcels-card";
import { RateCard } from "@/components/shipments/detail/rate-card";
import { ShipmentActions } from "@/components/shipments/detail/shipment-actions";
import { ShipmentHeader } from "@/components/shipments/detail/shipment-header";
import { TrackingTimeline } from "@/components/shipments/detail/tracking-timeline";
import { formatMoney } from "@/lib/client/format";
import { requireSession } from "@/lib/dashboard/session";
import { printPaperKey } from "@/lib/client/print-paper";

export const metadata: Metadata = { title: "Shipment" };

const SHIPMENT_ID = /^shp_[0-9a-f]{32}$/;

export default async function ShipmentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { ctx, org, user } = await requireSession();
  const detail = SHIPMENT_ID.test(id) ? await loadShipmentDetail(ctx, id) : null;
  if (!detail) notFound();
  const { shipment, label, printable, zpl, tracker } = detail;
  const rate = shipment.selected_rate;
  return (
    <div className="grid gap-6">
      <ShipmentHeader
        shipment={shipment}
        purchasedAt={label?.purchasedAt ?? null}
        actions={
          <ShipmentActions
            shipmentId={id}
            status={shipment.status}
            printable={printable}
            trackingNumber={shipment.tracking_number}
            carrierName={rate?.carrier_name ?? shipment.carrier_name}
            amount={rate ? formatMoney(rate.total_charge, rate.currency) : null}
            paperKey={printPaperKey(org.id, user.id)}
          />
        }
      />
      {shipment.messages.length > 0 && (
        <section aria-label="Messages from the carrier">
          <CarrierMessages messages={shipment.messages} />
        </section>
      )}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div className="grid gap-6">
          <LabelCard
            shipmentId={id}
            status={shipment.status}
            trackingNumber={shipment.tracking_number}
            printable={printable}
            bought={label !== null}
            zpl={zpl}
          />
          {shipment.documents.length > 0 && (
            <DocumentsCard
              shipmentId={id}
              documents={shipment.documents}
              electronicInvoice={shipment.customs?.commercial_invoice === true}
            />
          )}
        </div>
        <div className="grid gap-6">
          <div className="grid gap-6 md:grid-cols-2">
            <AddressCard title="Ship from" address={shipment.shipper} />
            <AddressCard title="Ship to" address={shipment.recipient} />
          </div>
          <div className="grid items-start gap-6 md:grid-cols-2">
            <ParcelsCard parcels={shipment.parcels} />
            {rate && <RateCard rate={rate} />}
          </div>
          {shipment.customs && <CustomsCard customs={shipment.customs} />}
          {tracker && <TrackingTimeline tracker={tracker} />}
        </div>
      </div>
    </div>
  );
}
