import { taxRegistrations } from "@/lib/carriers/tax-registrations";
import {
  CarrierError,
  carrierCode,
  type AdapterMessage,
  type Address,
  type Customs,
  type RateQuote,
  type ShipRequest,
} from "@/lib/carriers/types";
import { convertWeight } from "@/lib/carriers/units";
import { canadapostService } from "./services";
import { cents } from "@/lib/carriers/currencies";
import { badResponse } from "./errors";
import { originPostalCode } from "./rating";
import { dimensionsCm, fit, oneCanadaPostParcel, optionCodes, postalCode, weightKg } from "./wire";
import type {
  AddressDetails,
  ContractShipment,
  CustomsElement,
  DeliverySpec,
  NonContractShipment,
  OptionElement,
} from "./requests";
import { amount, buildXml, list, NAMESPACE, node, parseXml, text } from "./xml";

/**
 * Create Shipment (contract, shipment.xsd) and Create Non-Contract Shipment (ncshipment.xsd; docs/canadapost.md,
 * "Labels"). Both answer the shipment's id, its tracking PIN and links; the label is not in the answer but behind its
 * `label` link (adapter.ts fetches it). A contract shipment names the label's stock and encoding (`print-preferences`);
 * a non-contract one has no such element, so Canada Post draws it as a PDF.
 */

export interface ShipOptions {
  customerNumber: string;
  contractId: string | null;
  shipDate: string;
  /** Contract only: `transmit-shipment` (true) or the day's `group-id` (false; transmitted at the end of the day). */
  transmit: boolean;
  labelSize: "4x6" | "letter";
}

const phone = (v: string | null) => (v ?? "").replace(/[^\d+\-() x]/g, "").slice(0, 25);

function addressDetails(
  a: Address,
  who: "sender" | "destination",
  messages: AdapterMessage[],
  withCountry = true,
): AddressDetails {
  const country = a.country_code.toUpperCase();
  return {
    "address-line-1": fit(a.address_line1, 44, `${who}.address_line1`, messages),
    "address-line-2": fit(a.address_line2, 44, `${who}.address_line2`, messages),
    city: fit(a.city, 40, `${who}.city`, messages),
    "prov-state": fit(a.state_code, 20, `${who}.state_code`, messages),
    "country-code": withCountry ? country : undefined,
    "postal-zip-code": (country === "CA" ? postalCode(a.postal_code) : a.postal_code.trim().slice(0, 14)) || undefined,
  };
}

/**
 * An HS code as Canada Post writes it: `6109.10`, `6109.10.00` (shipment.xsd: the heading, then pairs of digits). A
 * code with an odd digit past the subheading (7 or 9 digits) keeps its whole pairs: the pattern has no place for it.
 */
function hsTariffCode(code: string | null): string | undefined {
  const all = (code ?? "").replace(/\D/g, "").slice(0, 10);
  const digits = all.slice(0, all.length - (all.length % 2));
  if (digits.length < 6) return undefined;
  return [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6, 8), digits.slice(8, 10)].filter(Boolean).join(".");
}

const REASON_FOR_EXPORT: ReadonlyMap<Customs["content_type"], string> = new Map([
  ["merchandise", "SOG"],
  ["documents", "DOC"],
  ["gift", "GIF"],
  ["sample", "SAM"],
  ["return_merchandise", "OTH"],
  ["other", "OTH"],
]);

/** The declaration as Canada Post's `customs` (shipment.xsd `CustomsType`); values in the declaration's currency. */
function customsElement(req: ShipRequest, contract: boolean, messages: AdapterMessage[]): CustomsElement {
  const customs = req.customs!;
  const currency = (customs.commodities[0]?.value_currency ?? customs.duty.currency ?? "CAD").toUpperCase();
  const rate = Number(customs.options.conversion_from_cad);
  if (currency !== "CAD" && !(rate > 0)) {
    // Canada Post wants the rate from CAD for any other currency; we keep no exchange rates, the client gives it.
    throw new CarrierError(
      carrierCode("CANADAPOST_FIELD_REQUIRED"),
      `Customs values in ${currency} need customs.options.conversion_from_cad (how many ${currency} one CAD buys).`,
      { field: "customs.options.conversion_from_cad" },
    );
  }
  const reason = REASON_FOR_EXPORT.get(customs.content_type) ?? "OTH";
  const other =
    reason === "OTH"
      ? fit(
          customs.content_description ?? (customs.content_type === "return_merchandise" ? "Returned goods" : "Other"),
          44,
          "customs.content_description",
          messages,
        )
      : undefined;
  const ioss = taxRegistrations(req, "recipient").find((r) => r.type === "ioss")?.number;
  return {
    currency,
    "conversion-from-cad": currency !== "CAD" ? Math.round(rate * 1e6) / 1e6 : undefined,
    "reason-for-export": reason,
    "other-reason": other,
    "sku-list": {
      item: customs.commodities.slice(0, 500).map((c, i) => ({
        "customs-number-of-units": Math.min(9999, Math.max(1, Math.round(c.quantity))),
        "customs-description": fit(c.description, 45, `customs.commodities[${i}].description`, messages),
        sku: fit(c.sku, 15, `customs.commodities[${i}].sku`, messages),
        "hs-tariff-code": hsTariffCode(c.hs_code),
        "unit-weight": Math.max(0.001, Math.ceil(convertWeight(c.weight, c.weight_unit, "KG") * 1000) / 1000),
        "customs-value-per-unit": Math.max(0.01, cents(c.value_amount)),
        "country-of-origin": c.origin_country.toUpperCase(),
      })),
    },
    "invoice-number": fit(customs.invoice, 10, "customs.invoice", messages),
    // ioss-id is in the contract schema only (ncshipment.xsd has none).
    "ioss-id": contract && ioss ? fit(ioss, 13, "customs.tax_registrations.recipient.ioss", messages) : undefined,
  };
}

/** Canada Post requires a non-delivery instruction for a parcel leaving Canada: RTS (return) or ABAN (abandon). */
function nonDelivery(req: ShipRequest): OptionElement[] {
  if (req.recipient.country_code.toUpperCase() === "CA") return [];
  return [{ "option-code": req.customs?.non_delivery === "abandon" ? "ABAN" : "RTS" }];
}

export function buildShipRequest(req: ShipRequest, opts: ShipOptions): { body: string; messages: AdapterMessage[] } {
  const messages: AdapterMessage[] = [];
  const parcel = oneCanadaPostParcel(req.parcels);
  const contract = opts.contractId !== null;
  const origin = originPostalCode(req);
  if (!canadapostService(req.service)) {
    throw new CarrierError(
      carrierCode("CANADAPOST_SERVICE_NOT_OFFERED"),
      `Canada Post has no service ${req.service}.`,
      {
        field: "service",
      },
    );
  }
  const s = req.shipper;
  const r = req.recipient;
  const options = [...optionCodes(req.options, messages), ...nonDelivery(req)];
  const deliverySpec: DeliverySpec = {
    "service-code": req.service,
    sender: {
      name: fit(s.person_name, 44, "sender.person_name", messages),
      // Required by both schemas; a person shipping alone is their own "company" on the label.
      company: fit(s.company_name ?? s.person_name ?? "Shipper", 44, "sender.company_name", messages),
      "contact-phone": phone(s.phone_number),
      "address-details": contract
        ? addressDetails(s, "sender", messages)
        : // Non-contract senders are Canadian (DomesticAddressDetailsType: no country, a Canadian postal code).
          { ...addressDetails(s, "sender", messages, false), "postal-zip-code": origin },
    },
    destination: {
      name: fit(r.person_name, 44, "destination.person_name", messages),
      company: fit(r.company_name, 44, "destination.company_name", messages),
      "client-voice-number": r.phone_number ? phone(r.phone_number) : undefined,
      "address-details": addressDetails(r, "destination", messages),
    },
    options: options.length ? { option: options } : undefined,
    "parcel-characteristics": { weight: weightKg(parcel), dimensions: dimensionsCm(parcel) },
    "print-preferences": contract
      ? {
          "output-format": opts.labelSize === "letter" ? "8.5x11" : "4x6",
          encoding: req.label_type === "ZPL" ? "ZPL" : "PDF",
        }
      : undefined,
    preferences: { "show-packing-instructions": true, "show-postage-rate": false, "show-insured-value": true },
    references: {
      "customer-ref-1": fit(req.reference, 35, "reference", messages),
      // Our shipment's key, without its constant prefix to fit 35 characters (as UPS's second reference).
      "customer-ref-2": req.shipment_key.replace(/^shp_/, "").slice(0, 35),
    },
    customs: req.customs ? customsElement(req, contract, messages) : undefined,
    "settlement-info": opts.contractId
      ? { "contract-id": opts.contractId, "intended-method-of-payment": "Account" }
      : undefined,
  };
  if (!contract) {
    const shipment: NonContractShipment = { "requested-shipping-point": origin, "delivery-spec": deliverySpec };
    return { body: buildXml("non-contract-shipment", NAMESPACE.ncshipment, shipment), messages };
  }
  const shipment: ContractShipment = {
    // Mutually exclusive (shipment.xsd): transmitted at once, or grouped for the end-of-day transmit.
    ...(opts.transmit ? { "transmit-shipment": true as const } : { "group-id": opts.shipDate.replace(/-/g, "") }),
    "requested-shipping-point": origin,
    "expected-mailing-date": opts.shipDate,
    "provide-pricing-info": true,
    "delivery-spec": deliverySpec,
  };
  const body = buildXml("shipment", NAMESPACE.shipment, shipment);
  return { body, messages };
}

export interface ShipInfo {
  shipmentId: string;
  trackingPin: string;
  status: string | null;
  label: { href: string; mediaType: string };
  /** The commercial invoice Canada Post draws for a parcel leaving Canada (`link[@rel=commercialInvoice]`). */
  invoice: { href: string; mediaType: string } | null;
  charge: RateQuote | null;
}

/** `shipment-info` (contract) or `non-contract-shipment-info` as what the adapter needs. */
export function parseShipResponse(xml: string, service: string): ShipInfo {
  const tree = parseXml(xml);
  const info = node(tree["shipment-info"]) ?? node(tree["non-contract-shipment-info"]);
  if (!info) throw badResponse("the shipment");
  const shipmentId = text(info["shipment-id"]);
  const trackingPin = text(info["tracking-pin"]);
  const links = list(node(info.links)?.link).map(node);
  const link = links.find((l) => l?.["@_rel"] === "label");
  const invoiceLink = links.find((l) => l?.["@_rel"] === "commercialInvoice");
  const invoiceHref = text(invoiceLink?.["@_href"]);
  const href = text(link?.["@_href"]);
  if (!shipmentId || !trackingPin || !href) throw badResponse("a shipment id, tracking PIN and label link");
  const price = node(info["shipment-price"]);
  let charge: RateQuote | null = null;
  const base = amount(price?.["base-amount"]);
  const due = amount(price?.["due-amount"]);
  if (price && base !== null && due !== null) {
    const extras = list(node(price["priced-options"])?.["priced-option"]).map((o) => ({
      name: text(node(o)?.["option-code"]) ?? "Option",
      amount: amount(node(o)?.["option-price"]) ?? 0,
      currency: "CAD",
    }));
    let discount = 0;
    for (const a of list(node(price.adjustments)?.adjustment)) {
      const cost = amount(node(a)?.["adjustment-amount"]) ?? 0;
      if (cost < 0) discount += -cost;
      else extras.push({ name: text(node(a)?.["adjustment-code"]) ?? "Adjustment", amount: cost, currency: "CAD" });
    }
    const tax = ["gst-amount", "pst-amount", "hst-amount"].reduce((s, k) => s + (amount(price[k]) ?? 0), 0);
    const standard = node(price["service-standard"]);
    charge = {
      service,
      service_name: canadapostService(service)?.name ?? service,
      currency: "CAD",
      base_charge: cents(base),
      discount: cents(discount),
      duties_and_taxes: cents(tax),
      total_charge: cents(due),
      extra_charges: extras.filter((e) => e.amount !== 0),
      transit_days: amount(standard?.["expected-transmit-time"]) ?? 0,
      estimated_delivery: text(standard?.["expected-delivery-date"]),
    };
  }
  return {
    shipmentId,
    trackingPin,
    status: text(info["shipment-status"]),
    label: { href, mediaType: text(link?.["@_media-type"]) ?? "application/pdf" },
    invoice: invoiceHref
      ? { href: invoiceHref, mediaType: text(invoiceLink?.["@_media-type"]) ?? "application/pdf" }
      : null,
    charge,
  };
}
