import { FileText } from "lucide-react";
import { DetailCard } from "@/components/shipments/detail/detail-card";
import { DocumentDownload } from "@/components/shipments/detail/document-download";
import type { DocumentType } from "@/lib/carriers/types";
import type { ShipmentDocument } from "@/lib/schemas/shipment-document";

const DOCUMENT_WORDS: Record<DocumentType, string> = {
  commercial_invoice: "Commercial invoice",
  pro_forma_invoice: "Pro forma invoice",
  certificate_of_origin: "Certificate of origin",
  cn22: "Customs declaration CN22",
  cn23: "Customs declaration CN23",
  waybill: "Waybill",
  other: "Document",
};

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The papers the carrier sold with the label: a commercial invoice to print and attach to the parcel when it was not
 * sent electronically, so customs do not hold it. Each downloads through the API client with the session
 * (DocumentDownload). Shown only when the carrier sent any.
 */
export function DocumentsCard({
  shipmentId,
  documents,
  electronicInvoice,
}: {
  shipmentId: string;
  documents: ShipmentDocument[];
  /** The declaration asked for the invoice to go to customs electronically (UPS Paperless, FedEx ETD). */
  electronicInvoice: boolean;
}) {
  return (
    <DetailCard title="Documents">
      <p className="mb-3 text-sm text-muted-foreground">
        {electronicInvoice
          ? "The invoice went to customs electronically; a copy is here for your records. Print any other paper and attach it to the parcel."
          : "Print these and attach them to the parcel with the label."}
      </p>
      <ul className="grid gap-2">
        {documents.map((d) => {
          const words = d.type === "other" && d.name ? d.name : DOCUMENT_WORDS[d.type];
          return (
            <li key={d.id} className="flex items-center justify-between gap-3 rounded-md border p-3 text-sm">
              <span className="flex min-w-0 items-center gap-2">
                <FileText aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                <span className="min-w-0 break-words">
                  {words}
                  <span className="text-muted-foreground">
                    {" "}
                    · {d.format} · {sizeText(d.size)}
                  </span>
                </span>
              </span>
              {d.id && (
                <DocumentDownload
                  url={`/v1/shipments/${encodeURIComponent(shipmentId)}/documents/${encodeURIComponent(d.id)}`}
                  words={words}
                />
              )}
            </li>
          );
        })}
      </ul>
    </DetailCard>
  );
}
