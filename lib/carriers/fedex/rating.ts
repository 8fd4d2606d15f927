import type { components as Rate } from "@/lib/carriers/fedex/generated/rate";
import type { PickupType } from "@/lib/carriers/fedex/config";
import { currencyOf } from "@/lib/carriers/currencies";
import type { AdapterMessage, ExtraCharge, RateQuote, RateRequest } from "@/lib/carriers/types";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";
import { GROUND_ECONOMY, smartPostInfoDetail, subPackagingType } from "@/lib/carriers/fedex/conditional";
import { alertMessages } from "@/lib/carriers/fedex/errors";
import { fedexOptions } from "@/lib/carriers/fedex/options";
import { fedexService } from "@/lib/carriers/fedex/services";
import {
  amount,
  businessDaysBetween,
  datePart,
  isRecord,
  money,
  packageLineItem,
  rateAddressOf,
  records,
  str,
  totalWeightLb,
  transitDaysOf,
  weightIn,
} from "@/lib/carriers/fedex/wire";
import { unitSystemOf, weightUnitOf } from "@/lib/carriers/units";

/**
 * Rate quotes (`POST /rate/v1/rates/quotes`): every service FedEx offers on the route, with transit times, list and
 * account rates. The account's own (negotiated) rate is what the shipper pays, so it is preferred over the list rate.
 */

export interface RateSettings {
  accountNumber: string;
  pickupType: PickupType;
  /** `YYYY-MM-DD` */
  shipDate: string;
  /** The account's SmartPost hub; without it Ground Economy is neither asked for nor offered. */
  smartPostHubId: string | null;
}

/**
 * FedEx rates an international parcel only with its customs commodities. A quote has no customs declaration yet,
 * so the parcels stand in for it: what they hold, worth `options.declared_value` (or a nominal 1) in
 * `options.currency` (or the origin's currency).
 */
function ratingCommodities(req: RateRequest) {
  const system = unitSystemOf(req.parcels);
  const declared = amount(req.options.declared_value);
  const currency =
    typeof req.options.currency === "string" && /^[A-Za-z]{3}$/.test(req.options.currency)
      ? req.options.currency.toUpperCase()
      : currencyOf(req.shipper.country_code);
  const description =
    req.parcels.map((p) => p.content ?? p.description).find((d): d is string => !!d && d.trim() !== "") ??
    (req.parcels.every((p) => p.is_document) ? "Documents" : "Merchandise");
  return {
    // rate-api.json takes SENDER only here: who really pays the duties is the ship request's business.
    dutiesPayment: { paymentType: "SENDER" as const },
    commodities: [
      {
        description: description.trim().slice(0, 450),
        countryOfManufacture: req.shipper.country_code.toUpperCase(),
        quantity: req.parcels.length,
        quantityUnits: "PCS",
        weight: {
          units: weightUnitOf(system),
          value: Math.round(req.parcels.reduce((s, p) => s + weightIn(system, p.weight, p.weight_unit), 0) * 100) / 100,
        },
        customsValue: { amount: declared !== null && declared > 0 ? declared : 1, currency },
      },
    ],
  };
}

export function buildRateRequest(
  req: RateRequest,
  s: RateSettings,
): { body: Rate["schemas"]["Full_Schema_Quote_Rate"]; messages: AdapterMessage[] } {
  const single = req.services.length === 1 && fedexService(req.services[0]!) ? req.services[0]! : null;
  const served = fedexOptions(req, req.options, single, false);
  const origin = req.shipper.country_code.toUpperCase();
  const destination = req.recipient.country_code.toUpperCase();
  const system = unitSystemOf(req.parcels);
  const international = crossesCustomsBorder(req.shipper.country_code, req.recipient.country_code);
  const body: Rate["schemas"]["Full_Schema_Quote_Rate"] = {
    accountNumber: { value: s.accountNumber },
    rateRequestControlParameters: { returnTransitTimes: true },
    requestedShipment: {
      shipper: { address: rateAddressOf(req.shipper) },
      recipient: { address: rateAddressOf(req.recipient) },
      // One of FedEx's services is filtered by FedEx; several (or another carrier's codes) here, from the answer.
      ...(single ? { serviceType: single } : {}),
      shipDateStamp: s.shipDate,
      pickupType: s.pickupType,
      packagingType: served.packagingType,
      ...(served.shipmentServices.length > 0
        ? { shipmentSpecialServices: { specialServiceTypes: served.shipmentServices } }
        : {}),
      ...(s.smartPostHubId ? { smartPostInfoDetail: smartPostInfoDetail(req.parcels, s.smartPostHubId) } : {}),
      rateRequestType: ["LIST", "ACCOUNT"],
      totalPackageCount: req.parcels.length,
      totalWeight: totalWeightLb(req.parcels),
      ...(international
        ? {
            documentShipment: req.parcels.every((p) => p.is_document),
            customsClearanceDetail: ratingCommodities(req),
          }
        : {}),
      requestedPackageLineItems: req.parcels.map((p, i) => {
        const sub = subPackagingType(origin, destination, p);
        return { ...packageLineItem(system, p), ...(sub ? { subPackagingType: sub } : {}), ...served.packages[i] };
      }),
    },
  };
  return { body, messages: served.messages };
}

/** The account's rate when FedEx sent one (in the preferred currency first), then the list rate. */
const RATE_TYPE_PREFERENCE = ["PREFERRED_CURRENCY", "ACCOUNT", "PREFERRED", "LIST"];

function chosenRate(details: Record<string, unknown>[]): Record<string, unknown> | undefined {
  for (const type of RATE_TYPE_PREFERENCE) {
    const found = details.find((d) => str(d.rateType)?.toUpperCase() === type);
    if (found) return found;
  }
  return details[0];
}

/** Surcharges (FUEL, RESIDENTIAL_DELIVERY, …) and transportation taxes (HST, VAT), each a named extra charge. */
export function chargesOf(rateDetail: Record<string, unknown>, currency: string): ExtraCharge[] {
  const surcharges = records(rateDetail.surCharges ?? rateDetail.surcharges);
  const out: ExtraCharge[] = [];
  for (const c of [...surcharges, ...records(rateDetail.taxes)]) {
    const value = amount(c.amount);
    if (value === null || value === 0) continue;
    const name = str(c.description) ?? str(c.name) ?? str(c.type) ?? str(c.surchargeType) ?? "Surcharge";
    out.push({ name, amount: money(value), currency });
  }
  return out;
}

function transitDays(reply: Record<string, unknown>, shipDate: string, delivery: string | null): number {
  const commit = isRecord(reply.commit) ? reply.commit : {};
  const op = isRecord(reply.operationalDetail) ? reply.operationalDetail : {};
  const transit = isRecord(commit.transitDays) ? commit.transitDays : {};
  const fromWords =
    transitDaysOf(transit.minimumTransitTime) ?? transitDaysOf(op.transitTime) ?? transitDaysOf(commit.daysInTransit);
  if (fromWords !== null) return fromWords;
  const fromDate = delivery ? businessDaysBetween(shipDate, delivery) : null;
  if (fromDate !== null) return fromDate;
  return fedexService(str(reply.serviceType) ?? "")?.typicalDays ?? 0;
}

function deliveryDate(reply: Record<string, unknown>): string | null {
  const commit = isRecord(reply.commit) ? reply.commit : {};
  const op = isRecord(reply.operationalDetail) ? reply.operationalDetail : {};
  const dateDetail = isRecord(commit.dateDetail) ? commit.dateDetail : {};
  return datePart(op.deliveryDate) ?? datePart(dateDetail.dayFormat) ?? datePart(op.commitDate);
}

function quoteOf(reply: Record<string, unknown>, shipDate: string): RateQuote | null {
  const service = str(reply.serviceType);
  const detail = chosenRate(records(reply.ratedShipmentDetails));
  if (!service || !detail) return null;
  const rateDetail = isRecord(detail.shipmentRateDetail) ? detail.shipmentRateDetail : {};
  const total = amount(detail.totalNetChargeWithDutiesAndTaxes) ?? amount(detail.totalNetCharge);
  if (total === null) return null;
  const currency = str(detail.currency) ?? str(rateDetail.currency) ?? "USD";
  const delivery = deliveryDate(reply);
  return {
    service,
    service_name: fedexService(service)?.name ?? str(reply.serviceName) ?? service,
    currency,
    base_charge: money(amount(detail.totalBaseCharge) ?? total),
    discount: money(Math.abs(amount(detail.totalDiscounts) ?? 0)),
    duties_and_taxes: money(amount(detail.totalDutiesAndTaxes) ?? 0),
    total_charge: money(total),
    extra_charges: chargesOf(rateDetail, currency),
    transit_days: transitDays(reply, shipDate, delivery),
    estimated_delivery: delivery,
  };
}

/**
 * The quotes in a successful answer, with its alerts as messages. `services` (the client's filter) keeps only those
 * codes; a reply without a usable charge is skipped rather than guessed.
 */
export function parseRateOutput(
  output: Record<string, unknown>,
  shipDate: string,
  services: readonly string[],
  groundEconomy = true,
): { quotes: RateQuote[]; messages: AdapterMessage[] } {
  const wanted = new Set(services);
  const quotes = records(output.rateReplyDetails)
    .map((r) => quoteOf(r, shipDate))
    .filter((q): q is RateQuote => q !== null && (wanted.size === 0 || wanted.has(q.service)))
    // A Ground Economy quote without the hub to buy it with would be refused at purchase.
    .filter((q) => groundEconomy || q.service !== GROUND_ECONOMY);
  return { quotes, messages: alertMessages(output.alerts) };
}
