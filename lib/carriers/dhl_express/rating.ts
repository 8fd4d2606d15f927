import type { components } from "@/lib/carriers/dhl_express/generated/mydhl";
import { cents, currencyOf } from "@/lib/carriers/currencies";
import type { AdapterMessage, ExtraCharge, RateQuote, RateRequest } from "@/lib/carriers/types";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";
import { warningMessages } from "@/lib/carriers/dhl_express/errors";
import { dhlOptions } from "@/lib/carriers/dhl_express/options";
import { dhlService } from "@/lib/carriers/dhl_express/services";
import {
  businessDaysBetween,
  datePart,
  isRecord,
  num,
  packageOf,
  plannedShippingDateAndTime,
  rateAddressOf,
  records,
  str,
} from "@/lib/carriers/dhl_express/wire";
import { unitSystemOf } from "@/lib/carriers/units";

type RateBody = components["schemas"]["supermodelIoLogisticsExpressRateRequest"];

/**
 * Rates (`POST /rates`, the multi-piece form): every product DHL sells on the route with its price and delivery
 * capabilities. DHL prices one product in up to three currencies (`currencyType` BILLC: the account's billing
 * currency, PULCL: the published local one, BASEC: DHL's base); the billing price is what the shipper pays.
 */

export interface RateSettings {
  accountNumber: string;
  /** `YYYY-MM-DD` on the origin's calendar. */
  shipDate: string;
  cutoffTime: string;
}

/** Documents alone cross a border undeclared (`isCustomsDeclarable` false); anything else is declared. */
export const isDeclarable = (req: Pick<RateRequest, "shipper" | "recipient" | "parcels">) =>
  crossesCustomsBorder(req.shipper.country_code, req.recipient.country_code) &&
  !req.parcels.every((p) => p.is_document);

export function buildRateRequest(req: RateRequest, s: RateSettings): { body: RateBody; messages: AdapterMessage[] } {
  const system = unitSystemOf(req.parcels);
  const declarable = isDeclarable(req);
  const served = dhlOptions(req);
  const declared = num(req.options.declared_value);
  const currency =
    typeof req.options.currency === "string" && /^[A-Za-z]{3}$/.test(req.options.currency.trim())
      ? req.options.currency.trim().toUpperCase()
      : currencyOf(req.shipper.country_code);
  // One of DHL's products is filtered by DHL; several (or another carrier's codes) here, from the answer.
  const single = req.services.length === 1 && dhlService(req.services[0]!) ? req.services[0]! : null;
  const body: RateBody = {
    customerDetails: {
      shipperDetails: rateAddressOf(req.shipper, "shipper"),
      receiverDetails: rateAddressOf(req.recipient, "recipient"),
    },
    accounts: [{ typeCode: "shipper", number: s.accountNumber }],
    ...(single ? { productCode: single } : {}),
    plannedShippingDateAndTime: plannedShippingDateAndTime(s.shipDate, s.cutoffTime, req.ship_date.time_zone),
    unitOfMeasurement: system,
    isCustomsDeclarable: declarable,
    // DHL prices a declarable parcel's duties and insurance on its value: the client's, when it gave one.
    ...(declarable && declared !== null && declared > 0
      ? { monetaryAmount: [{ typeCode: "declaredValue", value: cents(declared), currency }] }
      : {}),
    ...(served.valueAddedServices.length > 0 ? { valueAddedServices: served.valueAddedServices } : {}),
    estimatedDeliveryDate: { isRequested: true, typeCode: "QDDC" },
    // DHL's default, written because the type says so: a date that cannot be served is refused, not moved on.
    nextBusinessDay: false,
    packages: req.parcels.map((p) => packageOf(system, p)),
  };
  return { body, messages: served.messages };
}

/** The entry of a list in the billing currency (BILLC), else the first: an answer in one currency names none. */
function billing(list: Record<string, unknown>[]): Record<string, unknown> | undefined {
  return list.find((e) => str(e.currencyType)?.toUpperCase() === "BILLC") ?? list[0];
}

/**
 * Surcharges and priced value-added services of the billing breakdown (fuel FF, emergency situation CR, insurance
 * II, …), each a named extra charge. The product's own line carries no serviceCode; services listed without a price
 * are what the route offers, not what was charged.
 */
export function chargesOf(breakdown: Record<string, unknown>[], currency: string): ExtraCharge[] {
  const out: ExtraCharge[] = [];
  for (const b of breakdown) {
    const price = num(b.price);
    if (!str(b.serviceCode) || price === null || price === 0) continue;
    out.push({ name: str(b.name) ?? str(b.serviceCode)!, amount: cents(price), currency });
  }
  return out;
}

function transitDays(product: Record<string, unknown>, shipDate: string, delivery: string | null, code: string) {
  const capabilities = isRecord(product.deliveryCapabilities) ? product.deliveryCapabilities : {};
  const days = num(capabilities.totalTransitDays);
  if (days !== null && days >= 0) return days;
  const fromDate = delivery ? businessDaysBetween(shipDate, delivery) : null;
  return fromDate ?? dhlService(code)?.typicalDays ?? 0;
}

function quoteOf(product: Record<string, unknown>, shipDate: string): RateQuote | null {
  const code = str(product.productCode);
  const total = billing(records(product.totalPrice));
  const price = num(total?.price);
  if (!code || !total || price === null) return null;
  const currency = str(total.priceCurrency) ?? "USD";
  const sameCurrency = (e: Record<string, unknown>) =>
    (str(e.currencyType) ?? "") === (str(total.currencyType) ?? "") || str(e.priceCurrency) === currency;
  const parts = records(billing(records(product.totalPriceBreakdown).filter(sameCurrency))?.priceBreakdown);
  const part = (type: string) => num(parts.find((p) => str(p.typeCode) === type)?.price);
  const detailed = records(billing(records(product.detailedPriceBreakdown).filter(sameCurrency))?.breakdown);
  const capabilities = isRecord(product.deliveryCapabilities) ? product.deliveryCapabilities : {};
  const delivery = datePart(capabilities.estimatedDeliveryDateAndTime);
  const extra = chargesOf(detailed, currency);
  const taxes = part("STTXA") ?? 0;
  const base = part("SPRQT") ?? price - taxes - extra.reduce((s, c) => s + c.amount, 0);
  return {
    service: code,
    // DHL's own name for a product this table does not know (a local product, a new one).
    service_name: dhlService(code)?.name ?? str(product.productName) ?? code,
    currency,
    base_charge: cents(base),
    discount: 0,
    duties_and_taxes: cents(taxes),
    total_charge: cents(price),
    extra_charges: extra,
    transit_days: transitDays(product, shipDate, delivery, code),
    estimated_delivery: delivery,
  };
}

/** The quotes of an answer, filtered to `services` when the client named some; DHL's warnings as messages. */
export function parseRateAnswer(
  answer: Record<string, unknown>,
  shipDate: string,
  services: readonly string[],
): { quotes: RateQuote[]; messages: AdapterMessage[] } {
  const wanted = new Set(services);
  const quotes = records(answer.products)
    .map((p) => quoteOf(p, shipDate))
    .filter((q): q is RateQuote => q !== null && (wanted.size === 0 || wanted.has(q.service)));
  return { quotes, messages: warningMessages(answer.warnings) };
}
