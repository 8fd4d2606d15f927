import type { Customs, CustomsContentType, Parcel, ShipRequest } from "@/lib/carriers/types";
import { money, paymentType, unitSystemOf, weightIn, weightUnitOf } from "@/lib/carriers/fedex/wire";

/**
 * A customs declaration in FedEx's terms (Ship API `requestedShipment.customsClearanceDetail`), and Electronic
 * Trade Documents: with `commercial_invoice`, FedEx draws the commercial invoice from these fields and sends it to
 * customs itself, so nothing is printed and taped to the parcel.
 */

// Only the purposes FedEx's commercial invoice has; "other" states none rather than a wrong one.
const PURPOSES: ReadonlyMap<CustomsContentType, string> = new Map([
  ["merchandise", "SOLD"],
  ["gift", "GIFT"],
  ["sample", "SAMPLE"],
  ["return_merchandise", "REPAIR_AND_RETURN"],
  ["documents", "NOT_SOLD"],
]);

/**
 * The export filing: an AES ITN as FedEx prints it ("AESX20220714987654"), or an FTR exemption, which FedEx takes
 * as a predefined value (`NO_EEI_30_37_A` for "NOEEI 30.37(a)").
 */
function exportComplianceStatement(customs: Customs): string | null {
  if (customs.aes) return customs.aes.replace(/\s+/g, "").toUpperCase();
  if (!customs.eel_pfc) return null;
  const exemption = /^NO\s*EEI\s*(?:FTR\s*)?30\.?(\d+)\s*\(?([a-z0-9]+)\)?/i.exec(customs.eel_pfc.trim());
  return exemption ? `NO_EEI_30_${exemption[1]}_${exemption[2]!.toUpperCase()}` : customs.eel_pfc.trim();
}

function commoditiesOf(customs: Customs, parcels: readonly Parcel[], origin: string, currency: string) {
  const system = unitSystemOf(parcels);
  const units = weightUnitOf(system);
  if (customs.commodities.length === 0) {
    // Documents need no commodity lines from the client, but FedEx needs one line describing them.
    const weight = parcels.reduce((s, p) => s + weightIn(system, p.weight, p.weight_unit), 0);
    return [
      {
        description: (customs.content_description ?? "Documents").slice(0, 450),
        countryOfManufacture: origin,
        quantity: 1,
        quantityUnits: "PCS",
        customsValue: { amount: money(customs.duty.declared_value ?? 0), currency },
        weight: { units, value: money(weight) },
      },
    ];
  }
  return customs.commodities.map((c) => ({
    description: c.description.slice(0, 450),
    countryOfManufacture: c.origin_country,
    quantity: c.quantity,
    quantityUnits: "PCS",
    unitPrice: { amount: money(c.value_amount), currency: c.value_currency },
    customsValue: { amount: money(c.value_amount * c.quantity), currency: c.value_currency },
    // Ours is the weight of one unit; FedEx's is the line's.
    weight: { units, value: weightIn(system, c.weight * c.quantity, c.weight_unit) },
    ...(c.hs_code ? { harmonizedCode: c.hs_code } : {}),
    ...(c.sku ? { partNumber: c.sku.slice(0, 35) } : {}),
  }));
}

export function customsClearanceDetail(req: ShipRequest, customs: Customs, accountNumber: string) {
  const origin = req.shipper.country_code.toUpperCase();
  const currency = customs.commodities[0]?.value_currency ?? customs.duty.currency ?? "USD";
  const commodities = commoditiesOf(customs, req.parcels, origin, currency);
  const total = commodities.reduce((s, c) => s + c.customsValue.amount, 0);
  const payer = paymentType(customs.duty.paid_by);
  // The sender pays from the shipping account; a recipient or third party from theirs when the client gave it.
  const dutyAccount = payer === "SENDER" ? accountNumber : customs.duty.account_number;
  const purpose = PURPOSES.get(customs.content_type);
  const statement = exportComplianceStatement(customs);
  return {
    dutiesPayment: {
      paymentType: payer,
      ...(dutyAccount ? { payor: { responsibleParty: { accountNumber: { value: dutyAccount } } } } : {}),
    },
    isDocumentOnly: customs.content_type === "documents",
    commercialInvoice: {
      termsOfSale: customs.incoterm,
      ...(purpose ? { shipmentPurpose: purpose } : {}),
      ...(customs.signer ? { originatorName: customs.signer.slice(0, 35) } : {}),
      ...(customs.invoice
        ? { customerReferences: [{ customerReferenceType: "INVOICE_NUMBER", value: customs.invoice.slice(0, 30) }] }
        : {}),
    },
    commodities,
    totalCustomsValue: { amount: money(customs.duty.declared_value ?? total), currency },
    ...(statement ? { exportDetail: { exportComplianceStatement: statement } } : {}),
  };
}

/**
 * The commercial invoice FedEx draws from `customsClearanceDetail` and answers in `shipmentDocuments` (Ship API
 * `ShippingDocumentSpecification`; `documentFormat` takes only PDF on PAPER_LETTER). Asked for on every shipment
 * across a customs border that carries goods: with Electronic Trade Documents it is the copy FedEx transmits, without
 * them it is the invoice the shipper prints and attaches to the parcel. Documents alone need no invoice.
 */
export function commercialInvoiceSpecification(customs: Customs) {
  if (!customs.commercial_invoice && documentsOnly(customs)) return null;
  return {
    shippingDocumentTypes: ["COMMERCIAL_INVOICE"],
    commercialInvoiceDetail: { documentFormat: { docType: "PDF", stockType: "PAPER_LETTER" } },
  };
}

function documentsOnly(customs: Customs): boolean {
  return customs.content_type === "documents" && customs.commodities.length === 0;
}

/** Electronic Trade Documents: FedEx sends the commercial invoice to customs itself (nothing to print). */
export function electronicTradeDocuments() {
  return {
    specialServiceTypes: ["ELECTRONIC_TRADE_DOCUMENTS"],
    etdDetail: { requestedDocumentTypes: ["COMMERCIAL_INVOICE"] },
  };
}
