import type { components as Ship } from "@/lib/carriers/fedex/generated/ship";
import {
  CarrierError,
  type Customs,
  type CustomsContentType,
  type Parcel,
  type ShipRequest,
} from "@/lib/carriers/types";
import { b13aFilingOption } from "@/lib/carriers/fedex/conditional";
import { money, paymentType, weightIn } from "@/lib/carriers/fedex/wire";
import { unitSystemOf, weightUnitOf } from "@/lib/carriers/units";

/**
 * A customs declaration in FedEx's terms (Ship API `requestedShipment.customsClearanceDetail`), and Electronic
 * Trade Documents: with `commercial_invoice`, FedEx draws the commercial invoice from these fields and sends it to
 * customs itself, so nothing is printed and taped to the parcel.
 */

// Only the purposes FedEx's commercial invoice has; "other" states none rather than a wrong one.
type RequestedShipment = Ship["schemas"]["Full_Schema_Ship"]["requestedShipment"];
type ShipmentPurpose = NonNullable<
  NonNullable<RequestedShipment["customsClearanceDetail"]>["commercialInvoice"]
>["shipmentPurpose"];

const PURPOSES: ReadonlyMap<CustomsContentType, ShipmentPurpose> = new Map<CustomsContentType, ShipmentPurpose>([
  ["merchandise", "SOLD"],
  ["gift", "GIFT"],
  ["sample", "SAMPLE"],
  ["return_merchandise", "REPAIR_AND_RETURN"],
  ["documents", "NOT_SOLD"],
]);

/**
 * The terms of sale FedEx's commercial invoice takes. ship-api.json lists none (components.schemas.CommercialInvoice
 * .properties.termsOfSale: "Max length is 3<br>Example: FCA"), so the list is FedEx's own earlier one, the Ship
 * Service WSDL's TermsOfSaleType (v12 on: CFR_OR_CPT, CIF_OR_CIP, DAP, DAT, DDP, DDU, EXW, FOB_OR_FCA), with each
 * pair as its two three-letter codes, as the REST field's three characters allow. It has no DPU (Incoterms 2020's
 * new name for DAT) nor FAS: refused before buying, the message naming DAT for DPU, rather than sent to a field
 * whose values FedEx does not publish.
 */
export const FEDEX_TERMS_OF_SALE: ReadonlySet<string> = new Set([
  "CFR",
  "CPT",
  "CIF",
  "CIP",
  "DAP",
  "DAT",
  "DDP",
  "DDU",
  "EXW",
  "FOB",
  "FCA",
]);

function termsOfSale(incoterm: string): string {
  if (FEDEX_TERMS_OF_SALE.has(incoterm)) return incoterm;
  throw new CarrierError(
    "not_supported",
    `FedEx's commercial invoice does not take customs.incoterm ${incoterm}${incoterm === "DPU" ? "; DAT is its pre-2020 name, which FedEx takes" : ""}. FedEx takes ${[...FEDEX_TERMS_OF_SALE].join(", ")}.`,
    { field: "customs.incoterm", accepted: [...FEDEX_TERMS_OF_SALE] },
  );
}

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
  // Commodity.numberOfPieces: "the number of pieces associated with the commodity", a piece being a package in
  // FedEx's words. We do not know which parcel holds which line, so each line names every parcel it may be in.
  const numberOfPieces = parcels.length;
  if (customs.commodities.length === 0) {
    // Documents need no commodity lines from the client, but FedEx needs one line describing them.
    const weight = parcels.reduce((s, p) => s + weightIn(system, p.weight, p.weight_unit), 0);
    return [
      {
        description: (customs.content_description ?? "Documents").slice(0, 450),
        countryOfManufacture: origin,
        numberOfPieces,
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
    numberOfPieces,
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
  const b13a = b13aFilingOption(origin, req.recipient.country_code.toUpperCase(), customs);
  const exportDetail = {
    ...(b13a ? { b13AFilingOption: b13a } : {}),
    ...(statement ? { exportComplianceStatement: statement } : {}),
  };
  return {
    dutiesPayment: {
      paymentType: payer,
      ...(dutyAccount ? { payor: { responsibleParty: { accountNumber: { value: dutyAccount } } } } : {}),
    },
    isDocumentOnly: customs.content_type === "documents",
    commercialInvoice: {
      termsOfSale: termsOfSale(customs.incoterm),
      ...(purpose ? { shipmentPurpose: purpose } : {}),
      ...(customs.signer ? { originatorName: customs.signer.slice(0, 35) } : {}),
      ...(customs.invoice
        ? {
            customerReferences: [
              { customerReferenceType: "INVOICE_NUMBER" as const, value: customs.invoice.slice(0, 30) },
            ],
          }
        : {}),
    },
    commodities,
    totalCustomsValue: { amount: money(customs.duty.declared_value ?? total), currency },
    ...(Object.keys(exportDetail).length > 0 ? { exportDetail } : {}),
  };
}

/**
 * The commercial invoice FedEx draws from `customsClearanceDetail` and answers in `shipmentDocuments` (Ship API
 * `ShippingDocumentSpecification`; `documentFormat` takes only PDF on PAPER_LETTER). Asked for on every shipment
 * across a customs border that carries goods: with Electronic Trade Documents it is the copy FedEx transmits, without
 * them it is the invoice the shipper prints and attaches to the parcel. Documents alone need no invoice.
 */
export function commercialInvoiceSpecification(
  customs: Customs,
): RequestedShipment["shippingDocumentSpecification"] | null {
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
export function electronicTradeDocuments(): NonNullable<RequestedShipment["shipmentSpecialServices"]> {
  return {
    specialServiceTypes: ["ELECTRONIC_TRADE_DOCUMENTS"],
    etdDetail: { requestedDocumentTypes: ["COMMERCIAL_INVOICE"] },
  };
}
