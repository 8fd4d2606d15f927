import type { ShipDocument, ShipRequest } from "@/lib/carriers/types";
import { isoDate } from "@/lib/carriers/sandbox/dates";
import { clientReference } from "@/lib/carriers/sandbox/label";
import type { SandboxService } from "@/lib/carriers/sandbox/services";
import { renderCommercialInvoice } from "@/lib/labels/invoice";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";

const SANDBOX_DOCUMENT_FOOTER = "SANDBOX TEST DOCUMENT - NOT VALID FOR CUSTOMS";

/**
 * What the sandbox prints beside the label, as UPS and FedEx do: a commercial invoice for goods that cross a customs
 * border, whether or not it also went "electronically" (`commercial_invoice`: a carrier that transmits the invoice
 * still hands the shipper a copy). Documents alone travel without one, as with UPS's DocumentsOnlyIndicator.
 */
export async function sandboxDocuments(
  req: ShipRequest,
  service: SandboxService,
  trackingNumber: string,
  now: Date,
): Promise<ShipDocument[]> {
  const customs = req.customs;
  if (!customs || !crossesCustomsBorder(req.shipper.country_code, req.recipient.country_code)) return [];
  if (customs.content_type === "documents" && customs.commodities.length === 0) return [];
  const bytes = await renderCommercialInvoice({
    carrierName: "Sandbox",
    serviceName: service.name,
    trackingNumber,
    shipper: req.shipper,
    recipient: req.recipient,
    customs,
    date: customs.invoice_date ?? isoDate(now),
    reference: clientReference(req),
    footerText: SANDBOX_DOCUMENT_FOOTER,
  });
  return [{ type: "commercial_invoice", format: "PDF", bytes, name: "Commercial invoice" }];
}
