import type { components as Options } from "@/lib/carriers/usps/generated/shipping-options";
import {
  CarrierError,
  type AdapterMessage,
  type ExtraCharge,
  type RateQuote,
  type RateRequest,
} from "@/lib/carriers/types";
import { badResponse } from "@/lib/carriers/usps/errors";
import { uspsExtras } from "@/lib/carriers/usps/options";
import { uspsService } from "@/lib/carriers/usps/services";
import { cents } from "@/lib/carriers/currencies";
import {
  isInternational,
  measures,
  num,
  oneUspsParcel,
  originZip,
  packagingWarnings,
  zip5,
} from "@/lib/carriers/usps/wire";
import type { UspsCredentials } from "@/lib/carriers/usps/auth";

/**
 * Rating through shipping options (shipping-options.yaml `POST /shipments/v3/options/search`; docs/usps.md, "Rates"):
 * one call answers every mail class with its prices and, at home, its delivery commitment. Domestic and international
 * requests differ (`DomesticOptionsRequest`, `InternationalOptionsRequest`); both are priced for the connection's
 * payment account at its price type. Currency is always USD.
 */

type DomesticRequest = Options["schemas"]["DomesticOptionsRequest"];
type InternationalRequest = Options["schemas"]["InternationalOptionsRequest"];
type DomesticExtra = Options["schemas"]["ExtraService"];

export interface RateSettings {
  credentials: UspsCredentials;
  priceType: "RETAIL" | "COMMERCIAL" | "CONTRACT";
  /** `YYYY-MM-DD` (carrierShipDate). */
  mailingDate: string;
}

const pricingOption = (s: RateSettings) => ({
  priceType: s.priceType,
  paymentAccount: { accountType: s.credentials.account_type, accountNumber: s.credentials.account_number },
});

export function buildRateRequest(
  req: RateRequest,
  s: RateSettings,
): {
  body: DomesticRequest | InternationalRequest;
  international: boolean;
  messages: AdapterMessage[];
} {
  const parcel = oneUspsParcel(req.parcels);
  const origin = originZip(req.shipper);
  const m = measures(parcel);
  const destination = req.recipient.country_code.toUpperCase();
  // Puerto Rico, Guam and the other territories are USPS domestic mail: their ZIP Codes are US ones.
  const international = isInternational(destination);
  const only = req.services.length === 1 ? req.services[0]!.trim().toUpperCase() : null;
  const extras = uspsExtras(req.options, only, international);
  const messages = [...extras.messages, ...packagingWarnings(parcel)];
  const packageDescription = { ...m, hasNonstandardCharacteristics: false, mailingDate: s.mailingDate };
  // International mail gets no extra services here (uspsExtras says so in its messages).
  const domesticExtras = {
    ...(extras.extraServices.length ? { extraServices: extras.extraServices as DomesticExtra[] } : {}),
    ...(extras.packageValue !== null ? { packageValue: extras.packageValue } : {}),
  };
  if (!international) {
    const destinationZIPCode = zip5(req.recipient.postal_code);
    if (!destinationZIPCode) {
      throw new CarrierError("not_supported", "USPS prices domestic mail by a 5-digit ZIP Code.", {
        field: "recipient.postal_code",
      });
    }
    return {
      international,
      messages,
      body: {
        pricingOptions: [pricingOption(s)],
        originZIPCode: origin,
        destinationZIPCode,
        destinationEntryFacilityType: "NONE",
        packageDescription: { ...packageDescription, ...domesticExtras, mailClass: "ALL_OUTBOUND" },
      },
    };
  }
  const postal = req.recipient.postal_code.trim();
  return {
    international,
    messages,
    body: {
      pricingOptions: [pricingOption(s)],
      originZIPCode: origin,
      destinationCountryCode: destination,
      ...(postal ? { foreignPostalCode: postal.slice(0, 11) } : {}),
      requestDutiesTaxesFees: false,
      packageDescription: { ...packageDescription, mailClass: "ALL" },
    },
  };
}

/**
 * Transit days from the commitment's free text ("2 Days", "1-Day", "3-5 Days"; "NO STD" and other texts have
 * none): the last number before "day", so a range counts its longest; 0 when there is none.
 */
export function transitDays(name: unknown): number {
  if (typeof name !== "string") return 0;
  const match = /(\d+)(?:\s*-\s*(\d+))?\s*-?\s*days?\b/i.exec(name);
  if (!match) return 0;
  const days = Number(match[2] ?? match[1]);
  return Number.isInteger(days) && days > 0 && days < 100 ? days : 0;
}

/** `YYYY-MM-DD` from a commitment's dates (`expectedDeliveryDate`, or the deprecated `scheduleDeliveryDate`). */
function deliveryDate(commitment: unknown): string | null {
  const c = commitment as { expectedDeliveryDate?: unknown; scheduleDeliveryDate?: unknown } | undefined;
  for (const v of [c?.expectedDeliveryDate, c?.scheduleDeliveryDate]) {
    const date = typeof v === "string" ? /^\d{4}-\d{2}-\d{2}/.exec(v)?.[0] : undefined;
    if (date) return date;
  }
  return null;
}

interface RateOption {
  totalPrice?: unknown;
  totalBasePrice?: unknown;
  commitment?: unknown;
  rates?: {
    description?: unknown;
    price?: unknown;
    processingCategory?: unknown;
    fees?: { name?: unknown; price?: unknown }[];
  }[];
  extraServices?: { name?: unknown; price?: unknown }[];
}

/**
 * A rate option as a quote; null when it has no price. `totalBasePrice` is "the price of the rate, fees, and pound
 * postage"; `totalPrice` adds the extra services, and USPS sends it "only … when `extraServices` are passed in the
 * request" (shipping-options.yaml `RateOptions`): without it, the total is the base price and the extra services'.
 */
function quoteOf(code: string, name: string, o: RateOption): RateQuote | null {
  const fees: ExtraCharge[] = [];
  for (const rate of Array.isArray(o.rates) ? o.rates : []) {
    for (const fee of Array.isArray(rate?.fees) ? rate.fees : []) {
      const price = num(fee?.price);
      if (price) fees.push({ name: typeof fee.name === "string" ? fee.name : "Fee", amount: price, currency: "USD" });
    }
  }
  const services: ExtraCharge[] = [];
  for (const service of Array.isArray(o.extraServices) ? o.extraServices : []) {
    const price = num(service?.price);
    if (price)
      services.push({
        name: typeof service.name === "string" ? service.name : "Extra service",
        amount: price,
        currency: "USD",
      });
  }
  const sum = (list: ExtraCharge[]) => list.reduce((s, e) => s + e.amount, 0);
  const basePrice = num(o.totalBasePrice);
  const total = num(o.totalPrice) ?? (basePrice !== null ? cents(basePrice + sum(services)) : null);
  if (total === null) return null;
  const extra = [...fees, ...services];
  // The package's fees are within the base price: the base charge is the postage without them.
  const base = cents((basePrice ?? total - sum(services)) - sum(fees));
  const commitment = o.commitment as { name?: unknown } | undefined;
  return {
    service: code,
    service_name: name,
    currency: "USD",
    base_charge: base,
    discount: 0,
    duties_and_taxes: 0,
    total_charge: total,
    extra_charges: extra,
    transit_days: transitDays(commitment?.name),
    estimated_delivery: deliveryDate(commitment),
  };
}

/**
 * Each mail class USPS answered that we sell, at the cheapest rate option of the processing category the label will
 * declare (`category`: wire.ts processingCategory, from the parcel's measures), cheapest class first. USPS answers an
 * option per rate indicator and processing category it found for the parcel; quoting a machinable price for a
 * parcel whose label says NON_MACHINABLE would quote less than the label costs. An option that names no category, or
 * a class with none of the label's, is taken at its cheapest. A class we do not sell (returns, Connect, Global
 * Express Guaranteed) is left out; `requested` narrows to those codes.
 */
export function parseRateResponse(
  body: unknown,
  requested: string[],
  category: string | null = null,
): { quotes: RateQuote[]; messages: AdapterMessage[] } {
  const pricing = (body as { pricingOptions?: unknown } | null)?.pricingOptions;
  if (!Array.isArray(pricing)) throw badResponse("its pricing options");
  const wanted = new Set(requested.map((s) => s.trim().toUpperCase()));
  const best = new Map<string, { quote: RateQuote; fits: boolean }>();
  for (const p of pricing) {
    const options = (p as { shippingOptions?: unknown })?.shippingOptions;
    for (const option of Array.isArray(options) ? options : []) {
      const o = option as { mailClass?: unknown; rateOptions?: unknown };
      const service = typeof o.mailClass === "string" ? uspsService(o.mailClass) : undefined;
      if (!service || (wanted.size > 0 && !wanted.has(service.code))) continue;
      for (const r of Array.isArray(o.rateOptions) ? o.rateOptions : []) {
        const quote = quoteOf(service.code, service.name, r as RateOption);
        if (!quote) continue;
        const fits = fitsCategory(r as RateOption, category);
        const held = best.get(service.code);
        // One of the label's category beats any other; among equals, the cheaper.
        if (!held || (fits && !held.fits) || (fits === held.fits && quote.total_charge < held.quote.total_charge)) {
          best.set(service.code, { quote, fits });
        }
      }
    }
  }
  const quotes = [...best.values()].map((b) => b.quote).sort((a, b) => a.total_charge - b.total_charge);
  return { quotes, messages: [] };
}

/**
 * A processing category by its PTR code: USPS's files deprecate NON_MACHINABLE and IRREGULAR for NONSTANDARD (PTR 5;
 * shipping options "will no longer" answer them "as of 01/19/2025", labels convert them), so the three are one.
 */
function categoryKey(c: string): string {
  const upper = c.trim().toUpperCase();
  return upper === "NON_MACHINABLE" || upper === "IRREGULAR" ? "NONSTANDARD" : upper;
}

/** Whether a rate option prices the label's processing category (an option that names none fits any). */
function fitsCategory(o: RateOption, category: string | null): boolean {
  if (category === null) return true;
  const named = (Array.isArray(o.rates) ? o.rates : [])
    .map((r) => r?.processingCategory)
    .filter((c): c is string => typeof c === "string")
    .map(categoryKey);
  return named.length === 0 || named.includes(categoryKey(category));
}
