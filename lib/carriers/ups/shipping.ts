import type { components as Shipping } from "@/lib/carriers/ups/generated/shipping";
import {
  CarrierError,
  carrierCode,
  type AdapterMessage,
  type RateQuote,
  type ShipDocument,
  type ShipRequest,
} from "@/lib/carriers/types";
import { chargesOf, type UpsCharges, type UpsNegotiatedCharges } from "@/lib/carriers/ups/charges";
import { chargeLine, customsValue, globalTaxInformation, internationalFields } from "@/lib/carriers/ups/customs";
import { alertMessages, asArray, badResponse } from "@/lib/carriers/ups/errors";
import { upsImageFormat, type UpsLabelImage } from "@/lib/carriers/ups/label";
import { upsServiceOptions } from "@/lib/carriers/ups/options";
import { serviceName } from "@/lib/carriers/ups/services";
import { Fitter, packageMeasures, packagingCode, unitsFor, upsParty } from "@/lib/carriers/ups/wire";
import { detectLabelType } from "@/lib/labels/check";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";

/**
 * Ship (Shipping.yaml `/shipments/{version}/ship`; docs/ups.md, "Labels"). References: the client's reference and our
 * shipment key as the first and second reference number, per package inside the US and Puerto Rico and on the shipment
 * elsewhere (UPS takes each only there). Images come back as GIF (the only image UPS draws), ZPL as ZPL.
 */

export const SHIPPING_VERSION = "v2409";

export interface ShipSettings {
  accountNumber: string;
  negotiatedRates: boolean;
  /** The day the parcel leaves, `YYYY-MM-DD` (carrierShipDate): ShipmentDate, and the invoice's date by default. */
  shipDate: string;
}

/** Routes on which UPS wants the shipment's value as InvoiceLineTotal (and refuses it on every other). */
const INVOICE_LINE_TOTAL_ROUTES = new Set(["US/CA", "US/PR"]);

/** Where UPS keeps references per package rather than per shipment. */
const PACKAGE_REFERENCE_ROUTES = new Set(["US/US", "PR/PR"]);

function required(field: string, message: string): CarrierError {
  return new CarrierError(carrierCode("UPS_FIELD_REQUIRED"), message, { field });
}

/** Our shipment key as a UPS reference (35 characters at most): the `shp_` prefix is the same on every key. */
function keyReference(shipmentKey: string): string {
  return (shipmentKey.startsWith("shp_") ? shipmentKey.slice(4) : shipmentKey).slice(0, 35);
}

type Shippable<P> = P & { Name: string; Address: { City: string } };

/** Shipping.yaml requires a Name (a company or a person) and a City on the shipper, ship-to and ship-from. */
function named<P extends { Name?: string; Address: { City?: string } }>(party: P, field: string): Shippable<P> {
  if (!party.Name) throw required(`${field}.person_name`, `UPS needs a company or person name for the ${field}.`);
  if (!party.Address.City) throw required(`${field}.city`, `UPS needs the ${field}'s city.`);
  return party as Shippable<P>;
}

export function buildShipRequest(req: ShipRequest, s: ShipSettings) {
  const f = new Fitter();
  const origin = req.shipper.country_code.toUpperCase();
  const destination = req.recipient.country_code.toUpperCase();
  const units = unitsFor(origin);
  const international = crossesCustomsBorder(origin, destination);

  const payer = req.payment ?? { paid_by: "sender", currency: null, account_number: null };
  const context = {
    accountNumber: s.accountNumber,
    shipperCountry: origin,
    recipientPostal: req.recipient.postal_code.replace(/[\s-]/g, "").toUpperCase(),
    options: req.options,
  };
  const transport = chargeLine("01", payer, context);
  if (!transport || (payer.paid_by === "third_party" && !payer.account_number)) {
    throw required(
      "payment.account_number",
      "UPS bills the recipient or a third party only to their UPS account number.",
    );
  }
  const customs = international ? req.customs : null;
  const duties = customs ? chargeLine("02", customs.duty, { ...context, options: customs.options }) : null;
  if (customs?.duty.paid_by === "third_party" && !duties) {
    throw required("customs.duty.account_number", "UPS bills duties to a third party only to its UPS account number.");
  }

  const references = [f.fit(req.reference, 35, "reference"), keyReference(req.shipment_key)]
    .filter((v): v is string => v !== undefined)
    .map((Value) => ({ Value }));
  const perPackage = PACKAGE_REFERENCE_ROUTES.has(`${origin}/${destination}`);
  const declared = Object.hasOwn(req.options, "declared_value") ? Number(req.options.declared_value) : NaN;
  const value = customs ? customsValue(customs) : Number.isFinite(declared) ? declared : 0;
  const invoiceLineTotal = INVOICE_LINE_TOTAL_ROUTES.has(`${origin}/${destination}`)
    ? {
        InvoiceLineTotal: {
          CurrencyCode: customs?.duty.currency ?? customs?.commodities[0]?.value_currency ?? "USD",
          // Whole units from 1 up, as UPS takes it.
          MonetaryValue: String(Math.max(1, Math.ceil(value))),
        },
      }
    : {};
  const shipper = named(upsParty(req.shipper, f, "shipper"), "shipper");
  // Registrations are for customs: a domestic label carries none.
  const taxInformation = international ? globalTaxInformation(req) : undefined;
  const forms = customs ? internationalFields(req, customs, f, s.shipDate) : null;
  const served = upsServiceOptions(req, req.options, req.service);
  const serviceOptions = { ...forms?.ShipmentServiceOptions, ...served.shipment };

  const body: Shipping["schemas"]["SHIPRequestWrapper"] = {
    ShipmentRequest: {
      Request: {
        RequestOption: "validate",
        SubVersion: "2409",
        ...(req.reference ? { TransactionReference: { CustomerContext: f.fit(req.reference, 512, "reference") } } : {}),
      },
      Shipment: {
        ...forms,
        ...(Object.keys(serviceOptions).length > 0 ? { ShipmentServiceOptions: serviceOptions } : {}),
        Shipper: { ...shipper, ShipperNumber: s.accountNumber },
        ShipTo: named(upsParty(req.recipient, f, "recipient", req.recipient.residential), "recipient"),
        ShipFrom: shipper,
        PaymentInformation: { ShipmentCharge: duties ? [transport, duties] : [transport] },
        ...(taxInformation ? { GlobalTaxInformation: taxInformation } : {}),
        ...(perPackage ? {} : { ReferenceNumber: references }),
        Service: { Code: req.service },
        // The origin's day, not UTC's: UPS prints it on the label and counts the service's days from it.
        ShipmentDate: s.shipDate.replace(/-/g, ""),
        ...invoiceLineTotal,
        ...(s.negotiatedRates ? { ShipmentRatingOptions: { NegotiatedRatesIndicator: "Y" } } : {}),
        Package: req.parcels.map((p, i) => ({
          Packaging: { Code: packagingCode(p) },
          ...packageMeasures(p, units),
          ...(perPackage ? { ReferenceNumber: references } : {}),
          ...(served.packages[i] ? { PackageServiceOptions: served.packages[i] } : {}),
        })),
      },
      LabelSpecification: {
        LabelImageFormat: { Code: upsImageFormat(req.label_type) },
        // UPS sizes GIF labels by browser; this is the value it defaults to.
        ...(req.label_type === "ZPL" ? {} : { HTTPUserAgent: "Mozilla/4.5" }),
        LabelStockSize: { Height: "6", Width: "4" },
      },
    },
  };
  return { body, messages: [...f.messages, ...served.messages] };
}

interface ShipmentResults {
  ShipmentIdentificationNumber?: unknown;
  PackageResults?: unknown;
  ShipmentCharges?: UpsCharges;
  NegotiatedRateCharges?: UpsNegotiatedCharges;
  Form?: {
    Code?: unknown;
    Description?: unknown;
    Image?: { ImageFormat?: { Code?: unknown }; GraphicImage?: unknown };
  };
}

export interface ParsedShipment {
  trackingNumber: string;
  shipmentId: string;
  /** One per package, in the package order. */
  trackingNumbers: string[];
  labels: UpsLabelImage[];
  charge: RateQuote | null;
  /** The printable international forms UPS sent (Form.Image): the commercial invoice. */
  documents: ShipDocument[];
  messages: AdapterMessage[];
}

function base64Bytes(v: unknown): Uint8Array | null {
  if (typeof v !== "string" || !/^[A-Za-z0-9+/\s]+={0,2}\s*$/.test(v)) return null;
  const bytes = new Uint8Array(Buffer.from(v.replace(/\s+/g, ""), "base64"));
  return bytes.length > 0 ? bytes : null;
}

export function parseShipResponse(
  body: unknown,
  opts: { service: string; origin: string; negotiatedRates: boolean; expectedFormat: string },
): ParsedShipment {
  const response = (body as { ShipmentResponse?: { Response?: { Alert?: unknown }; ShipmentResults?: unknown } })
    ?.ShipmentResponse;
  const results = response?.ShipmentResults as ShipmentResults | undefined;
  if (!results) throw badResponse("ShipmentResults");
  const shipmentId =
    typeof results.ShipmentIdentificationNumber === "string" ? results.ShipmentIdentificationNumber : "";
  const packages = asArray(results.PackageResults) as {
    TrackingNumber?: unknown;
    ShippingLabel?: { ImageFormat?: { Code?: unknown }; GraphicImage?: unknown };
  }[];
  if (!shipmentId || packages.length === 0) throw badResponse("a shipment number and its packages");
  const trackingNumbers: string[] = [];
  const labels: UpsLabelImage[] = [];
  for (const pkg of packages) {
    const number = typeof pkg.TrackingNumber === "string" ? pkg.TrackingNumber : null;
    const bytes = base64Bytes(pkg.ShippingLabel?.GraphicImage);
    const format = String(pkg.ShippingLabel?.ImageFormat?.Code ?? "").toUpperCase();
    if (!number || !bytes) throw badResponse("a tracking number and label for every package");
    if (format !== opts.expectedFormat)
      throw badResponse(`a ${opts.expectedFormat} label (it sent ${format || "none"})`);
    trackingNumbers.push(number);
    labels.push({ format, bytes });
  }
  const money = chargesOf(results.ShipmentCharges, results.NegotiatedRateCharges, opts.negotiatedRates);
  const charge: RateQuote | null = money
    ? {
        service: opts.service,
        service_name: serviceName(opts.service, opts.origin) ?? `UPS service ${opts.service}`,
        currency: money.currency,
        base_charge: money.base_charge,
        discount: money.discount,
        duties_and_taxes: money.duties_and_taxes,
        total_charge: money.total_charge,
        extra_charges: money.extra_charges,
        transit_days: 0,
        estimated_delivery: null,
      }
    : null;
  const forms = formsOf(results.Form);
  return {
    trackingNumber: trackingNumbers[0]!,
    shipmentId,
    trackingNumbers,
    labels,
    charge,
    documents: forms.documents,
    messages: [...alertMessages(response?.Response?.Alert), ...forms.messages],
  };
}

/**
 * `ShipmentResults.Form` (Shipping.yaml `ShipmentResults_Form`): "01 - All Requested International Forms" in one
 * image, whose `ImageFormat.Code` is PDF (the only value the schema lists). The only form we request is the
 * commercial invoice (InternationalForms `FormType` "01", customs.ts), so that is what it holds. The label is sold by
 * now: a form that is not the file it claims to be is dropped with a warning rather than failing the purchase.
 */
function formsOf(form: ShipmentResults["Form"]): { documents: ShipDocument[]; messages: AdapterMessage[] } {
  const image = form?.Image;
  if (!image || image.GraphicImage === undefined) return { documents: [], messages: [] };
  const bytes = base64Bytes(image.GraphicImage);
  const claimed = String(image.ImageFormat?.Code ?? "").toUpperCase();
  const format = bytes ? detectLabelType(bytes) : null;
  if (!bytes || !format || (claimed && claimed !== format)) {
    return {
      documents: [],
      messages: [
        {
          code: carrierCode("UPS_FORM_UNREADABLE"),
          level: "warning",
          message:
            "UPS sent the shipment's international forms in a file that could not be read; print the commercial invoice from UPS's site.",
          details: { format: claimed || null },
        },
      ],
    };
  }
  const name = typeof form?.Description === "string" && form.Description.trim() ? form.Description.trim() : null;
  return { documents: [{ type: "commercial_invoice", format, bytes, name }], messages: [] };
}
