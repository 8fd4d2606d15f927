import { cents } from "@/lib/carriers/currencies";
import type { components } from "@/lib/carriers/dhl_express/generated/mydhl";
import type { Address, AdapterMessage, LabelType, RateQuote, ShipRequest, ShipResult } from "@/lib/carriers/types";
import { CarrierError, carrierCode } from "@/lib/carriers/types";
import { taxRegistrations } from "@/lib/carriers/tax-registrations";
import type { DhlLabelSize } from "@/lib/carriers/dhl_express/config";
import { declaredValue, exportDeclaration, registrationNumbers } from "@/lib/carriers/dhl_express/customs";
import { documentsOf, kindOf, oneLabel } from "@/lib/carriers/dhl_express/documents";
import { badResponse, warningMessages } from "@/lib/carriers/dhl_express/errors";
import { dhlOptions } from "@/lib/carriers/dhl_express/options";
import { chargesOf, isDeclarable } from "@/lib/carriers/dhl_express/rating";
import { dhlService } from "@/lib/carriers/dhl_express/services";
import {
  clip,
  datePart,
  isRecord,
  num,
  packageOf,
  plannedShippingDateAndTime,
  records,
  str,
} from "@/lib/carriers/dhl_express/wire";
import { unitSystemOf } from "@/lib/carriers/units";

type ShipBody = components["schemas"]["supermodelIoLogisticsExpressCreateShipmentRequest"];
type ImageOption = NonNullable<NonNullable<ShipBody["outputImageProperties"]>["imageOptions"]>[number];

/**
 * Shipments (`POST /shipments`): the label comes back inline, base64, in `documents[]` beside the waybill document
 * and, for declarable goods, the commercial invoice DHL drew from the export declaration, with the shipment's charges
 * (`getRateEstimates`), so the label's charge is DHL's own figure.
 */

export interface ShipSettings {
  accountNumber: string;
  labelStock: DhlLabelSize;
  paperlessTrade: boolean;
  /** `YYYY-MM-DD` on the origin's calendar. */
  shipDate: string;
  cutoffTime: string;
}

/** DHL's Paperless Trade value-added service: the invoice goes to customs electronically. */
export const PAPERLESS_TRADE = "WY";

/**
 * Transport label templates (the spec's `templateName` samples): the 8×4 in label DHL prints on 4×6 in stock, and the
 * same label on a sheet. A thermal printer has no sheets, so ZPL stays on the label.
 */
function labelTemplate(type: LabelType, stock: DhlLabelSize): string {
  return type === "PDF" && stock === "letter" ? "ECOM26_84_A4_001" : "ECOM26_84_001";
}

const ENCODINGS: ReadonlyMap<LabelType, "pdf" | "zpl"> = new Map([
  ["PDF", "pdf"],
  ["ZPL", "zpl"],
]);

/**
 * MyDHL's contact needs a phone, a company and a full name (`supermodelIoLogisticsExpressContact`): a person's name
 * stands in for a missing company (as DHL's own forms do for private people), and the shipper's phone for a
 * recipient without one. A party with neither name, or no phone at all, is refused before anything is bought.
 */
function partyOf(a: Address, field: "shipper" | "recipient", fallbackPhone: string | null) {
  const fullName = clip(a.person_name, 255) ?? clip(a.company_name, 255);
  const phone = clip(a.phone_number, 70) ?? clip(fallbackPhone, 70);
  if (!fullName || !phone) {
    const missing = fullName ? "phone_number" : "person_name";
    throw new CarrierError(
      carrierCode("DHL_FIELD_REQUIRED"),
      `DHL Express needs a ${fullName ? "phone number" : "name"} for the ${field}.`,
      { field: `${field}.${missing}` },
    );
  }
  return {
    postalAddress: {
      postalCode: a.postal_code.trim().slice(0, 12),
      cityName: a.city.trim().slice(0, 45),
      countryCode: a.country_code.toUpperCase(),
      ...(a.state_code.trim().length >= 2 ? { provinceCode: a.state_code.trim().slice(0, 35) } : {}),
      addressLine1: a.address_line1.trim().slice(0, 45),
      ...(clip(a.address_line2, 45) ? { addressLine2: clip(a.address_line2, 45) } : {}),
      ...(clip(a.suburb, 45) ? { addressLine3: clip(a.suburb, 45) } : {}),
    },
    contactInformation: {
      phone,
      companyName: (clip(a.company_name, 100) ?? fullName).slice(0, 100),
      fullName,
      ...(clip(a.email, 70) ? { email: clip(a.email, 70) } : {}),
    },
    typeCode: a.company_name?.trim() ? ("business" as const) : ("private" as const),
  };
}

/** What the parcel holds, in DHL's 70 characters (which must not start with a space). */
function contentDescription(req: ShipRequest): string {
  const said = (v: string | null | undefined) => (v && v.trim() !== "" ? v.trim() : null);
  const words =
    said(req.customs?.content_description) ??
    said(req.customs?.commodities.map((c) => c.description.trim()).join(", ")) ??
    said(req.parcels.map((p) => p.content ?? p.description).find((d) => said(d))) ??
    (req.customs?.content_type === "documents" || req.parcels.every((p) => p.is_document)
      ? "Documents"
      : "Merchandise");
  return words.slice(0, 70);
}

/**
 * Who pays: the shipper's account always; a recipient or third party paying the transport adds its account as
 * `payer`, and duties paid by an account other than the shipper's add it as `duties-taxes` (spec `Account.typeCode`).
 */
function accountsOf(req: ShipRequest, shipper: string): ShipBody["accounts"] {
  const accounts: ShipBody["accounts"] = [{ typeCode: "shipper", number: shipper }];
  const payer = req.payment?.paid_by !== "sender" ? req.payment?.account_number?.trim() : null;
  if (payer && payer !== shipper) accounts.push({ typeCode: "payer", number: payer.slice(0, 12) });
  const duty = req.customs?.duty;
  const dutyAccount = duty && duty.paid_by !== "sender" ? duty.account_number?.trim() : null;
  if (dutyAccount && dutyAccount !== shipper)
    accounts.push({ typeCode: "duties-taxes", number: dutyAccount.slice(0, 12) });
  return accounts;
}

export function buildShipRequest(req: ShipRequest, s: ShipSettings): { body: ShipBody; messages: AdapterMessage[] } {
  const encodingFormat = ENCODINGS.get(req.label_type);
  if (!encodingFormat) {
    throw new CarrierError(
      carrierCode("DHL_LABEL_TYPE"),
      `DHL Express prints labels as PDF or ZPL, not ${req.label_type}.`,
      {
        field: "label_type",
      },
    );
  }
  // DHL sells local products beyond our table, so any code of its shape passes; another shape would be refused by
  // DHL's schema (productCode: 1 to 6 characters) after the request left.
  if (!/^[A-Z0-9]{1,6}$/i.test(req.service)) {
    throw new CarrierError(
      carrierCode("DHL_PRODUCT_CODE"),
      `"${req.service.slice(0, 40)}" is not a DHL Express product code.`,
      {
        field: "service",
      },
    );
  }
  const system = unitSystemOf(req.parcels);
  const declarable = isDeclarable(req);
  const customs = declarable ? req.customs : null;
  const served = dhlOptions(req);
  const messages = [...served.messages];
  const shipperRegs = registrationNumbers(taxRegistrations(req, "shipper"), req.shipper.country_code, "shipper");
  const recipientRegs = registrationNumbers(
    taxRegistrations(req, "recipient"),
    req.recipient.country_code,
    "recipient",
  );
  messages.push(...shipperRegs.messages, ...recipientRegs.messages);
  // The spec's shipment has no instruction for an undeliverable parcel: the client's wish is said to be unsent.
  if (customs?.non_delivery) {
    messages.push({
      code: "not_supported",
      level: "warning",
      message: `MyDHL's shipment takes no instruction for an undeliverable parcel; customs.non_delivery "${customs.non_delivery}" was not sent, and DHL Express handles it by its own terms.`,
      details: { field: "customs.non_delivery" },
    });
  }
  const paperless = !!customs?.commercial_invoice && s.paperlessTrade;
  const services = [
    ...served.valueAddedServices,
    ...(paperless ? [{ serviceCode: PAPERLESS_TRADE }] : []),
    // Duties and taxes billed to the shipper: DHL's "DUTY TAX PAID" service, which DDP means.
    ...(customs?.incoterm === "DDP" ? [{ serviceCode: "DD" }] : []),
  ];
  const imageOptions: ImageOption[] = [
    { typeCode: "label", templateName: labelTemplate(req.label_type, s.labelStock) },
    { typeCode: "waybillDoc", isRequested: true },
    // The invoice as a paper whenever goods are declared: to attach when it is not sent electronically, and a copy
    // of what was sent when it is.
    ...(customs ? [{ typeCode: "invoice" as const, isRequested: true, invoiceType: "commercial" as const }] : []),
  ];
  const value = customs ? declaredValue(customs) : null;
  const shipperParty = partyOf(req.shipper, "shipper", null);
  const recipientParty = partyOf(req.recipient, "recipient", req.shipper.phone_number);
  const body: ShipBody = {
    plannedShippingDateAndTime: plannedShippingDateAndTime(s.shipDate, s.cutoffTime, req.ship_date.time_zone),
    pickup: { isRequested: false },
    productCode: req.service,
    accounts: accountsOf(req, s.accountNumber),
    ...(services.length > 0 ? { valueAddedServices: services } : {}),
    outputImageProperties: {
      encodingFormat,
      imageOptions,
      // The waybill as a document of its own, not a second page of the label roll.
      splitTransportAndWaybillDocLabels: true,
      allDocumentsInOneImage: false,
    },
    ...(req.reference ? { customerReferences: [{ value: req.reference.slice(0, 35), typeCode: "CU" as const }] } : {}),
    customerDetails: {
      shipperDetails: {
        ...shipperParty,
        ...(shipperRegs.numbers.length > 0 ? { registrationNumbers: shipperRegs.numbers } : {}),
      },
      receiverDetails: {
        ...recipientParty,
        ...(recipientRegs.numbers.length > 0 ? { registrationNumbers: recipientRegs.numbers } : {}),
      },
    },
    content: {
      packages: req.parcels.map((p) => packageOf(system, p)),
      isCustomsDeclarable: declarable,
      ...(value ? { declaredValue: value.value, declaredValueCurrency: value.currency } : {}),
      ...(customs
        ? {
            exportDeclaration: exportDeclaration(customs, system, {
              number: customs.invoice ?? req.reference ?? req.shipment_key,
              date: customs.invoice_date ?? s.shipDate,
            }),
          }
        : {}),
      description: contentDescription(req),
      incoterm: customs?.incoterm ?? "DAP",
      unitOfMeasurement: system,
    },
    getRateEstimates: true,
    estimatedDeliveryDate: { isRequested: true, typeCode: "QDDC" },
  };
  return { body, messages };
}

/** The shipment's charge in the billing currency, with its surcharges, when DHL sent one. */
function chargeOf(answer: Record<string, unknown>, service: string, delivery: string | null): RateQuote | null {
  const charges = records(answer.shipmentCharges);
  const bill = charges.find((c) => str(c.currencyType)?.toUpperCase() === "BILLC") ?? charges[0];
  const total = num(bill?.price);
  if (!bill || total === null) return null;
  const currency = str(bill.priceCurrency) ?? "USD";
  const extra = chargesOf(
    records(bill.serviceBreakdown).map((b) => ({ ...b, serviceCode: str(b.typeCode) })),
    currency,
  );
  const details = records(answer.shipmentDetails)[0] ?? {};
  const pickup = isRecord(details.pickupDetails) ? details.pickupDetails : {};
  return {
    service,
    service_name: dhlService(service)?.name ?? str(details.productShortName) ?? service,
    currency,
    base_charge: cents(total - extra.reduce((s, c) => s + c.amount, 0)),
    discount: 0,
    duties_and_taxes: 0,
    total_charge: cents(total),
    extra_charges: extra,
    transit_days: num(pickup.totalTransitDays) ?? dhlService(service)?.typicalDays ?? 0,
    estimated_delivery: delivery,
  };
}

/**
 * Whether DHL took Paperless Trade on: the shipment's services as DHL answered them name WY (true) or not (false);
 * null when DHL listed no services at all, as its own Paperless Trade sample answer does, which says nothing either way.
 */
function paperlessTaken(answer: Record<string, unknown>): boolean | null {
  const listed = records(answer.shipmentDetails).filter((d) => Array.isArray(d.valueAddedServices));
  if (listed.length === 0) return null;
  return listed.some((d) => records(d.valueAddedServices).some((v) => str(v.serviceCode) === PAPERLESS_TRADE));
}

export async function parseShipAnswer(
  answer: Record<string, unknown>,
  req: Pick<ShipRequest, "service" | "label_type">,
  paperlessAsked: boolean,
): Promise<{ result: ShipResult; messages: AdapterMessage[] }> {
  const trackingNumber = str(answer.shipmentTrackingNumber);
  if (!trackingNumber) throw badResponse("no shipment tracking number in the answer");
  const pieceDocs = records(answer.packages).flatMap((p) => records(p.documents));
  const all = [...records(answer.documents), ...pieceDocs];
  const label = await oneLabel(
    all.filter((d) => kindOf(d) === "label"),
    req.label_type,
  );
  const papers = documentsOf(all.filter((d) => kindOf(d) !== "label"));
  const pieceNumbers = records(answer.packages)
    .map((p) => str(p.trackingNumber))
    .filter((n): n is string => n !== null);
  const estimated = isRecord(answer.estimatedDeliveryDate) ? answer.estimatedDeliveryDate : {};
  const delivery = datePart(estimated.estimatedDeliveryDate);
  const messages = [...warningMessages(answer.warnings), ...papers.messages];
  if (paperlessAsked && paperlessTaken(answer) === false) {
    messages.push({
      code: carrierCode("DHL_PAPERLESS_NOT_TAKEN"),
      level: "warning",
      message:
        "DHL Express did not take Paperless Trade on this route: print the commercial invoice and attach it to the parcel.",
      details: { field: "customs.commercial_invoice" },
    });
  }
  return {
    result: {
      tracking_number: trackingNumber,
      // The waybill number is the shipment: DHL tracks by it, and it is the only identifier MyDHL has.
      shipment_identifier: trackingNumber,
      label: { type: req.label_type, bytes: label },
      documents: papers.documents,
      charge: chargeOf(answer, req.service, delivery),
      meta: {
        service_name: dhlService(req.service)?.name ?? req.service,
        ...(pieceNumbers.length > 0 ? { piece_tracking_numbers: pieceNumbers } : {}),
        ...(str(answer.trackingUrl) ? { tracking_url: str(answer.trackingUrl) } : {}),
      },
    },
    messages,
  };
}
