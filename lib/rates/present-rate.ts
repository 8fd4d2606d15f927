import { newId } from "@/lib/db/ids";
import type { rates } from "@/lib/db/schema";
import type { RateQuote } from "@/lib/carriers/types";
import type { Rate, RateInput } from "@/lib/schemas/rate";

/** What a rate is made of, wherever it comes from: a carrier's quote, a stored row, or a rate a client sent back. */
export type RateFields = Omit<typeof rates.$inferSelect, "orgId" | "shipmentId" | "position">;

/** The one place a Rate's JSON is built (docs/api.md, "Resources"): every field, in the contract's names. */
export function presentRate(r: RateFields): Rate {
  return {
    id: r.id,
    carrier_name: r.carrierName,
    carrier_id: r.carrierId,
    currency: r.currency,
    service: r.service,
    discount: r.discount,
    base_charge: r.baseCharge,
    total_charge: r.totalCharge,
    duties_and_taxes: r.dutiesAndTaxes,
    transit_days: r.transitDays,
    extra_charges: r.extraCharges,
    meta: r.meta,
    carrier_ref: r.carrierRef,
    test_mode: r.testMode,
  };
}

export interface RateSource {
  id: string;
  carrierName: string;
  carrierId: string;
  testMode: boolean;
}

/** Money has at most 2 decimals (docs/api.md, "Conventions"), whatever an adapter computed. */
const money = (n: number) => Math.round(n * 100) / 100;

/** A carrier's quote through one of our connections. */
export function quotedRate(quote: RateQuote, connection: RateSource, id: string = newId("rate")): RateFields {
  return {
    id,
    carrierName: connection.carrierName,
    carrierId: connection.carrierId,
    currency: quote.currency,
    service: quote.service,
    discount: money(quote.discount),
    baseCharge: money(quote.base_charge),
    totalCharge: money(quote.total_charge),
    dutiesAndTaxes: money(quote.duties_and_taxes),
    transitDays: quote.transit_days,
    extraCharges: quote.extra_charges.map((c) => ({ ...c, amount: money(c.amount) })),
    meta: {
      service_name: quote.service_name,
      rate_provider: connection.carrierName,
      carrier_connection_id: connection.id,
      estimated_delivery: quote.estimated_delivery,
    },
    carrierRef: connection.id,
    testMode: connection.testMode,
  };
}

/** A rate a client sent back (proxy shipping), with the meta keys every rate carries filled in. */
export function rateFromInput(r: RateInput): RateFields {
  const meta = r.meta as Partial<Rate["meta"]>;
  return {
    id: r.id,
    carrierName: r.carrier_name,
    carrierId: r.carrier_id,
    currency: r.currency,
    service: r.service,
    discount: r.discount,
    baseCharge: r.base_charge,
    totalCharge: r.total_charge,
    dutiesAndTaxes: r.duties_and_taxes,
    transitDays: r.transit_days,
    extraCharges: r.extra_charges,
    meta: {
      ...r.meta,
      service_name: typeof meta.service_name === "string" ? meta.service_name : r.service,
      rate_provider: typeof meta.rate_provider === "string" ? meta.rate_provider : r.carrier_name,
      carrier_connection_id: r.carrier_ref,
    },
    carrierRef: r.carrier_ref,
    testMode: r.test_mode,
  };
}
