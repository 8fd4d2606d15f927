import type { components as Ship } from "@/lib/carriers/fedex/generated/ship";
import type { PDFDocument } from "pdf-lib";
import type { AdapterMessage, LabelType, RateQuote, ShipRequest, ShipResult } from "@/lib/carriers/types";
import type { FedexLabelSize, PickupType } from "@/lib/carriers/fedex/config";
import { carrierCode } from "@/lib/carriers/types";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";
import { taxRegistrations } from "@/lib/carriers/tax-registrations";
import {
  GROUND_ECONOMY,
  groundEconomyNeedsHub,
  smartPostInfoDetail,
  subPackagingType,
} from "@/lib/carriers/fedex/conditional";
import {
  commercialInvoiceSpecification,
  customsClearanceDetail,
  electronicTradeDocuments,
} from "@/lib/carriers/fedex/customs";
import { documentsOf, isLabel } from "@/lib/carriers/fedex/documents";
import { fedexOptions } from "@/lib/carriers/fedex/options";
import { alertMessages, badResponse } from "@/lib/carriers/fedex/errors";
import { chargesOf } from "@/lib/carriers/fedex/rating";
import { fedexService } from "@/lib/carriers/fedex/services";
import { pdfLib } from "@/lib/labels/pdf-lib";
import {
  amount,
  datePart,
  isRecord,
  money,
  packageLineItem,
  partyOf,
  paymentType,
  records,
  str,
  totalWeightLb,
  transitDaysOf,
} from "@/lib/carriers/fedex/wire";
import { unitSystemOf } from "@/lib/carriers/units";

/**
 * Shipping (`POST /ship/v1/shipments`): the label comes back inline, base64, in the image type asked for (PDF, PNG
 * or ZPLII), with the shipment's rating, so the label's charge is FedEx's own figure.
 */

export interface ShipSettings {
  accountNumber: string;
  pickupType: PickupType;
  labelStock: FedexLabelSize;
  /** `YYYY-MM-DD` */
  shipDate: string;
  /** The account's SmartPost hub (config `smart_post_hub_id`); Ground Economy needs it. */
  smartPostHubId: string | null;
}

type LabelSpecification = Ship["schemas"]["Full_Schema_Ship"]["requestedShipment"]["labelSpecification"];

const IMAGE_TYPES: Record<LabelType, LabelSpecification["imageType"]> = { PDF: "PDF", PNG: "PNG", ZPL: "ZPLII" };

type StockType = LabelSpecification["labelStockType"];

// ship-api.json `LabelSpecification.labelStockType`: thermal (STOCK_) and paper (PAPER_) stocks of each size.
const THERMAL_STOCK: ReadonlyMap<FedexLabelSize, StockType> = new Map<FedexLabelSize, StockType>([
  ["4x6", "STOCK_4X6"],
  ["4x6.75", "STOCK_4X675"],
  ["4x8", "STOCK_4X8"],
]);
const PAPER_STOCK: ReadonlyMap<FedexLabelSize, StockType> = new Map<FedexLabelSize, StockType>([
  ["4x6", "PAPER_4X6"],
  ["4x6.75", "PAPER_4X675"],
  ["4x8", "PAPER_4X8"],
  ["letter", "PAPER_LETTER"],
]);

/**
 * ZPL goes to thermal printers (STOCK_), PDF and PNG to paper (PAPER_). A thermal printer has no letter sheets, so a
 * letter connection's ZPL labels stay 4×6, as they always were.
 */
function labelStockType(type: LabelType, stock: FedexLabelSize): StockType {
  if (type === "ZPL") return THERMAL_STOCK.get(stock) ?? "STOCK_4X6";
  return PAPER_STOCK.get(stock) ?? "PAPER_4X6";
}

/**
 * FedEx keeps up to 30 characters of a P.O. number; our shipment key is `shp_` and 32 hex digits, so it travels as
 * `shp_` and the same 16 bytes in base64url (26 characters), which is still the key and still unique.
 */
export function shipmentKeyReference(key: string): string {
  const hex = /^shp_([0-9a-f]{32})$/.exec(key)?.[1];
  return hex ? `shp_${Buffer.from(hex, "hex").toString("base64url")}` : key.slice(0, 30);
}

function customerReferences(
  req: ShipRequest,
): { customerReferenceType: "CUSTOMER_REFERENCE" | "P_O_NUMBER"; value: string }[] {
  return [
    ...(req.reference
      ? [{ customerReferenceType: "CUSTOMER_REFERENCE" as const, value: req.reference.slice(0, 30) }]
      : []),
    { customerReferenceType: "P_O_NUMBER" as const, value: shipmentKeyReference(req.shipment_key) },
  ];
}

export function buildShipRequest(
  req: ShipRequest,
  s: ShipSettings,
): { body: Ship["schemas"]["Full_Schema_Ship"]; messages: AdapterMessage[] } {
  const groundEconomy = req.service === GROUND_ECONOMY;
  if (groundEconomy && !s.smartPostHubId) throw groundEconomyNeedsHub();
  const served = fedexOptions(req, req.options, req.service, true);
  const origin = req.shipper.country_code.toUpperCase();
  const destination = req.recipient.country_code.toUpperCase();
  const system = unitSystemOf(req.parcels);
  const international = crossesCustomsBorder(req.shipper.country_code, req.recipient.country_code);
  const customs = international ? req.customs : null;
  const etd = customs?.commercial_invoice ? electronicTradeDocuments() : null;
  const invoice = customs ? commercialInvoiceSpecification(customs) : null;
  const payer = paymentType(req.payment?.paid_by);
  const payerAccount = payer === "SENDER" ? s.accountNumber : req.payment?.account_number;
  const references = customerReferences(req);
  const specialServices = [...(etd?.specialServiceTypes ?? []), ...served.shipmentServices];
  const body: Ship["schemas"]["Full_Schema_Ship"] = {
    labelResponseOptions: "LABEL",
    accountNumber: { value: s.accountNumber },
    requestedShipment: {
      shipDatestamp: s.shipDate,
      shipper: partyOf(req.shipper, "shipper", taxRegistrations(req, "shipper")),
      // FedEx needs a phone number for the recipient; the shipper's stands in when the client gave none.
      recipients: [partyOf(req.recipient, "recipient", taxRegistrations(req, "recipient"), req.shipper.phone_number)],
      pickupType: s.pickupType,
      serviceType: req.service,
      packagingType: served.packagingType,
      totalWeight: totalWeightLb(req.parcels),
      shippingChargesPayment: {
        paymentType: payer,
        ...(payerAccount ? { payor: { responsibleParty: { accountNumber: { value: payerAccount } } } } : {}),
      },
      ...(groundEconomy ? { smartPostInfoDetail: smartPostInfoDetail(req.parcels, s.smartPostHubId!) } : {}),
      ...(specialServices.length > 0
        ? { shipmentSpecialServices: { ...etd, specialServiceTypes: specialServices } }
        : {}),
      ...(customs ? { customsClearanceDetail: customsClearanceDetail(req, customs, s.accountNumber) } : {}),
      labelSpecification: {
        labelFormatType: "COMMON2D",
        labelStockType: labelStockType(req.label_type, s.labelStock),
        imageType: IMAGE_TYPES[req.label_type],
      },
      ...(invoice ? { shippingDocumentSpecification: invoice } : {}),
      rateRequestType: ["LIST", "ACCOUNT"],
      totalPackageCount: req.parcels.length,
      requestedPackageLineItems: req.parcels.map((p, i) => {
        const sub = subPackagingType(origin, destination, p);
        return {
          ...packageLineItem(system, p),
          ...(sub ? { subPackagingType: sub } : {}),
          customerReferences: references,
          ...(p.description ? { itemDescription: p.description.slice(0, 50) } : {}),
          ...served.packages[i],
        };
      }),
    },
  };
  return { body, messages: served.messages };
}

/** The rate FedEx billed: the one it names as actual, else the account rate, else the first. */
function billedRate(details: Record<string, unknown>[], actual: string | null) {
  return (
    details.find((d) => actual !== null && str(d.rateType) === actual) ??
    details.find((d) => /ACCOUNT/.test(str(d.rateType) ?? "")) ??
    details[0]
  );
}

/** The charge from the shipment's rating, or the sum of its packages' when FedEx rated only the packages. */
function chargeOf(shipment: Record<string, unknown>, service: string): RateQuote | null {
  const completed = isRecord(shipment.completedShipmentDetail) ? shipment.completedShipmentDetail : {};
  const rating = isRecord(completed.shipmentRating) ? completed.shipmentRating : {};
  const op = isRecord(completed.operationalDetail) ? completed.operationalDetail : {};
  const shipmentRate = billedRate(records(rating.shipmentRateDetails), str(rating.actualRateType));
  const packageRates = records(completed.completedPackageDetails)
    .map((p) => (isRecord(p.packageRating) ? p.packageRating : {}))
    .map((r) => billedRate(records(r.packageRateDetails), str(r.actualRateType)))
    .filter(isRecord);
  const parts = shipmentRate ? [shipmentRate] : packageRates;
  const first = parts[0];
  if (!first) return null;
  const sum = (...keys: string[]) =>
    parts.reduce((s, d) => s + (keys.map((k) => amount(d[k])).find((v) => v !== null) ?? 0), 0);
  const currency = str(first.currency) ?? "USD";
  const total = sum("totalNetChargeWithDutiesAndTaxes", "totalNetCharge", "netCharge");
  return {
    service,
    service_name: fedexService(service)?.name ?? str(shipment.serviceName) ?? service,
    currency,
    base_charge: money(sum("totalBaseCharge", "baseCharge")),
    discount: money(Math.abs(sum("totalFreightDiscounts", "totalDiscounts"))),
    duties_and_taxes: money(sum("totalDutiesAndTaxes")),
    total_charge: money(total),
    extra_charges: parts.flatMap((d) => chargesOf(d, currency)),
    transit_days: transitDaysOf(op.transitTime) ?? fedexService(service)?.typicalDays ?? 0,
    estimated_delivery: datePart(op.deliveryDate),
  };
}

/**
 * One file for the shipment: a multi-piece PDF becomes one document with a page per label and ZPL one job per
 * label; PNG files cannot be joined, so the first label is answered with a warning naming the others.
 */
async function oneLabel(
  files: Uint8Array[],
  type: LabelType,
  trackingNumbers: string[],
): Promise<{ bytes: Uint8Array; messages: AdapterMessage[] }> {
  if (files.length === 1 || type === "PNG") {
    const messages: AdapterMessage[] =
      files.length > 1
        ? [
            {
              code: carrierCode("FEDEX_LABELS_NOT_JOINED"),
              level: "warning",
              message: `FedEx made ${files.length} PNG labels; only the first is attached. Buy PDF or ZPL labels to get every parcel's label in one file.`,
              details: { tracking_numbers: trackingNumbers },
            },
          ]
        : [];
    return { bytes: files[0]!, messages };
  }
  if (type === "ZPL") {
    const text = files.map((f) => new TextDecoder().decode(f).trim()).join("\n");
    return { bytes: new TextEncoder().encode(text + "\n"), messages: [] };
  }
  const pdf = await pdfLib();
  const merged = await pdf.PDFDocument.create();
  for (const file of files) {
    let doc: PDFDocument;
    try {
      doc = await pdf.PDFDocument.load(file);
    } catch {
      throw badResponse("a label that is not a PDF");
    }
    for (const page of await merged.copyPages(doc, doc.getPageIndices())) merged.addPage(page);
  }
  return { bytes: await merged.save(), messages: [] };
}

function decodeLabel(encoded: string): Uint8Array {
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length === 0) throw badResponse("an empty label");
  return new Uint8Array(bytes);
}

export async function parseShipOutput(
  output: Record<string, unknown>,
  req: Pick<ShipRequest, "service" | "label_type">,
): Promise<{ result: ShipResult; messages: AdapterMessage[] }> {
  const shipment = records(output.transactionShipments)[0];
  if (!shipment) throw badResponse("no shipment in the answer");
  const pieces = records(shipment.pieceResponses);
  const trackingNumber = str(shipment.masterTrackingNumber) ?? str(pieces[0]?.trackingNumber);
  if (!trackingNumber) throw badResponse("no tracking number in the answer");
  const pieceDocs = pieces.flatMap((p) => records(p.packageDocuments));
  const shipmentDocs = records(shipment.shipmentDocuments);
  const labelDocs = [...pieceDocs, ...shipmentDocs].filter((d) => isLabel(d) && str(d.encodedLabel));
  // Shipment-level copies repeat the pieces' labels; the pieces' own are the ones to print.
  const labels = pieceDocs.some((d) => isLabel(d) && str(d.encodedLabel))
    ? labelDocs.filter((d) => pieceDocs.includes(d))
    : labelDocs;
  if (labels.length === 0) throw badResponse("no label in the answer");
  const pieceNumbers = pieces.map((p) => str(p.trackingNumber)).filter((n): n is string => n !== null);
  const label = await oneLabel(
    labels.map((d) => decodeLabel(str(d.encodedLabel)!)),
    req.label_type,
    pieceNumbers,
  );
  const completed = isRecord(shipment.completedShipmentDetail) ? shipment.completedShipmentDetail : {};
  const papers = documentsOf([...shipmentDocs, ...pieceDocs].filter((d) => !isLabel(d)));
  return {
    result: {
      tracking_number: trackingNumber,
      // FedEx cancels by the master tracking number: it is the shipment's identifier.
      shipment_identifier: trackingNumber,
      label: { type: req.label_type, bytes: label.bytes },
      documents: papers.documents,
      charge: chargeOf(shipment, req.service),
      meta: {
        service_name: fedexService(req.service)?.name ?? str(shipment.serviceName) ?? req.service,
        ...(str(completed.carrierCode) ? { fedex_carrier_code: str(completed.carrierCode) } : {}),
        ...(pieceNumbers.length > 1 ? { piece_tracking_numbers: pieceNumbers } : {}),
      },
    },
    messages: [
      ...alertMessages(output.alerts, shipment.alerts, ...pieceDocs.map((d) => d.alerts)),
      ...label.messages,
      ...papers.messages,
    ],
  };
}
