import type { components as Rating } from "@/lib/carriers/ups/generated/rating";
import { currencyOf } from "@/lib/carriers/currencies";
import {
  CarrierError,
  carrierCode,
  type Address,
  type AdapterMessage,
  type RateQuote,
  type RateRequest,
} from "@/lib/carriers/types";
import { chargesOf, type UpsCharges, type UpsNegotiatedCharges } from "@/lib/carriers/ups/charges";
import { alertMessages, asArray, badResponse } from "@/lib/carriers/ups/errors";
import { upsServiceOptions } from "@/lib/carriers/ups/options";
import { serviceName } from "@/lib/carriers/ups/services";
import {
  Fitter,
  isoFromUpsDate,
  packageMeasures,
  packagingCode,
  totalWeight,
  unitsFor,
  upsAddress,
} from "@/lib/carriers/ups/wire";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";
import { excerpt } from "@/lib/validation";

/**
 * Rating (Rating.yaml `/rating/{version}/{requestoption}`; docs/ups.md, "Rates"). Every service at once with
 * `Shoptimeintransit`, one service with `Ratetimeintransit`: the *timeintransit* options add transit days and an
 * arrival date, and need the shipment's total weight and a pickup date: the ship date on the origin's calendar, past
 * the connection's cut-off and the weekend (lib/carriers/ship-date.ts), which UPS counts transit days from.
 */

const RATING_VERSION = "v2409";

export interface RateSettings {
  accountNumber: string;
  negotiatedRates: boolean;
  /** The pickup date UPS counts transit days from, `YYYY-MM-DD` (carrierShipDate). */
  shipDate: string;
}

/** `options.declared_value` as a positive number, when the client gave one. */
function declaredValue(options: Record<string, unknown>): number | null {
  const v = Object.hasOwn(options, "declared_value") ? Number(options.declared_value) : NaN;
  return Number.isFinite(v) && v > 0 ? v : null;
}

/**
 * An address as Rating takes it: its StateProvinceCode is two characters (Rating.yaml), needed only for US and
 * Canadian addresses (negotiated rates); a longer one (Australia's NSW, Mexico's states) is left out rather than refused.
 */
function rateAddress(a: Address, f: Fitter, field: string, residential = false) {
  const { StateProvinceCode, ...rest } = upsAddress(a, f, field, residential);
  return StateProvinceCode && StateProvinceCode.length <= 2 ? { ...rest, StateProvinceCode } : rest;
}

export function buildRateRequest(req: RateRequest, s: RateSettings) {
  const f = new Fitter();
  const origin = req.shipper.country_code.toUpperCase();
  const units = unitsFor(origin);
  const single = req.services.length === 1 ? req.services[0]! : null;
  const option = single ? "Ratetimeintransit" : "Shoptimeintransit";
  const international = crossesCustomsBorder(origin, req.recipient.country_code);
  const documentsOnly = req.parcels.length > 0 && req.parcels.every((p) => p.is_document);
  const value = declaredValue(req.options);
  const served = upsServiceOptions(req, req.options, single);
  const body: Rating["schemas"]["RATERequestWrapper"] = {
    RateRequest: {
      Request: { RequestOption: option, SubVersion: "2409" },
      Shipment: {
        Shipper: { ShipperNumber: s.accountNumber, Address: rateAddress(req.shipper, f, "shipper") },
        ShipTo: { Address: rateAddress(req.recipient, f, "recipient", req.recipient.residential) },
        ShipFrom: { Address: rateAddress(req.shipper, f, "shipper") },
        PaymentDetails: { ShipmentCharge: [{ Type: "01", BillShipper: { AccountNumber: s.accountNumber } }] },
        ...(single ? { Service: { Code: single } } : {}),
        ShipmentTotalWeight: totalWeight(req.parcels, units.weight),
        // UPS wants a value for international time in transit; without a declared value, the least it accepts.
        ...(international
          ? { InvoiceLineTotal: { CurrencyCode: currencyOf(origin), MonetaryValue: String(Math.ceil(value ?? 1)) } }
          : {}),
        ...(documentsOnly && international ? { DocumentsOnlyIndicator: "Y" } : {}),
        ...(s.negotiatedRates ? { ShipmentRatingOptions: { NegotiatedRatesIndicator: "Y" } } : {}),
        ...(served.shipment ? { ShipmentServiceOptions: served.shipment } : {}),
        TaxInformationIndicator: "Y",
        DeliveryTimeInformation: {
          PackageBillType: documentsOnly ? "02" : "03",
          Pickup: { Date: s.shipDate.replace(/-/g, "") },
        },
        Package: req.parcels.map((p, i) => ({
          PackagingType: { Code: packagingCode(p) },
          ...packageMeasures(p, units),
          ...(served.packages[i] ? { PackageServiceOptions: served.packages[i] } : {}),
        })),
      },
    },
  };
  return { path: `/api/rating/${RATING_VERSION}/${option}`, body, messages: [...f.messages, ...served.messages] };
}

interface RatedShipment extends UpsCharges {
  Service?: { Code?: unknown };
  NegotiatedRateCharges?: UpsNegotiatedCharges;
  RatedShipmentAlert?: unknown;
  GuaranteedDelivery?: { BusinessDaysInTransit?: unknown };
  TimeInTransit?: {
    ServiceSummary?: {
      Service?: { Description?: unknown };
      EstimatedArrival?: { BusinessDaysInTransit?: unknown; Arrival?: { Date?: unknown } };
    };
  };
}

function days(v: unknown): number | null {
  const n = Number(v);
  return (typeof v === "string" || typeof v === "number") && Number.isInteger(n) && n >= 0 ? n : null;
}

export interface ParsedRates {
  quotes: RateQuote[];
  messages: AdapterMessage[];
}

/**
 * A RateResponse as quotes. `requested`: the services the client asked for (all of UPS's when empty); asked-for
 * services UPS did not quote are named in a warning, or refused when UPS quoted none of them.
 */
export function parseRateResponse(
  body: unknown,
  opts: { origin: string; negotiatedRates: boolean; requested: string[] },
): ParsedRates {
  const response = (body as { RateResponse?: { Response?: { Alert?: unknown }; RatedShipment?: unknown } })
    ?.RateResponse;
  if (!response) throw badResponse("a RateResponse");
  const messages = alertMessages(response.Response?.Alert);
  const wanted = new Set(opts.requested);
  const quotes: RateQuote[] = [];
  for (const raw of asArray(response.RatedShipment)) {
    const rated = raw as RatedShipment;
    const code = typeof rated.Service?.Code === "string" ? rated.Service.Code : null;
    if (!code) throw badResponse("a service code on a rated shipment");
    if (wanted.size > 0 && !wanted.has(code)) continue;
    const charges = chargesOf(rated, rated.NegotiatedRateCharges, opts.negotiatedRates);
    if (!charges) throw badResponse(`a total for service ${code}`);
    const summary = rated.TimeInTransit?.ServiceSummary;
    const description = typeof summary?.Service?.Description === "string" ? summary.Service.Description.trim() : "";
    const transit =
      days(summary?.EstimatedArrival?.BusinessDaysInTransit) ?? days(rated.GuaranteedDelivery?.BusinessDaysInTransit);
    const { negotiated: _negotiated, ...money } = charges;
    quotes.push({
      service: code,
      service_name: serviceName(code, opts.origin) ?? (description || `UPS service ${code}`),
      ...money,
      transit_days: transit ?? 0,
      estimated_delivery: isoFromUpsDate(summary?.EstimatedArrival?.Arrival?.Date),
    });
    messages.push(...alertMessages(rated.RatedShipmentAlert, { service: code }));
  }
  if (wanted.size > 0) {
    const quoted = new Set(quotes.map((q) => q.service));
    // The codes are the client's: repeated as excerpts, never whole.
    const missing = opts.requested.filter((c) => !quoted.has(c)).map((c) => excerpt(c, 20));
    if (quotes.length === 0) {
      throw new CarrierError(
        carrierCode("UPS_SERVICE_NOT_OFFERED"),
        `UPS offered none of the requested services (${missing.join(", ")}) for this shipment.`,
        { field: "services", services: missing },
      );
    }
    for (const service of missing) {
      messages.push({
        code: carrierCode("UPS_SERVICE_NOT_OFFERED"),
        level: "warning",
        message: `UPS did not offer service ${service} for this shipment.`,
        details: { service },
      });
    }
  }
  return { quotes, messages };
}
