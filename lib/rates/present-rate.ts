import { newId } from "@/lib/db/ids";
import type { RateQuote } from "@/lib/carriers/types";
import type { Rate, RateInput } from "@/lib/schemas/rate";

export interface RateSource {
  id: string;
  carrierName: string;
  carrierId: string;
  testMode: boolean;
}

/** CONTRACT §1: money has at most 2 decimals, whatever an adapter computed. */
const money = (n: number) => Math.round(n * 100) / 100;

export function presentRate(quote: RateQuote, connection: RateSource, id: string = newId("rate")): Rate {
  return {
    id,
    carrier_name: connection.carrierName,
    carrier_id: connection.carrierId,
    currency: quote.currency,
    service: quote.service,
    discount: money(quote.discount),
    base_charge: money(quote.base_charge),
    total_charge: money(quote.total_charge),
    duties_and_taxes: money(quote.duties_and_taxes),
    transit_days: quote.transit_days,
    extra_charges: quote.extra_charges.map((c) => ({ ...c, amount: money(c.amount) })),
    meta: {
      service_name: quote.service_name,
      rate_provider: connection.carrierName,
      carrier_connection_id: connection.id,
      estimated_delivery: quote.estimated_delivery,
    },
    carrier_ref: connection.id,
    test_mode: connection.testMode,
  };
}

/** A rate a client sent back, in the full output shape (every field present). */
export function rateFromInput(r: RateInput): Rate {
  const meta = r.meta as Partial<Rate["meta"]>;
  return {
    id: r.id,
    carrier_name: r.carrier_name,
    carrier_id: r.carrier_id,
    currency: r.currency,
    service: r.service,
    discount: r.discount,
    base_charge: r.base_charge,
    total_charge: r.total_charge,
    duties_and_taxes: r.duties_and_taxes,
    transit_days: r.transit_days,
    extra_charges: r.extra_charges,
    meta: {
      ...r.meta,
      service_name: typeof meta.service_name === "string" ? meta.service_name : r.service,
      rate_provider: typeof meta.rate_provider === "string" ? meta.rate_provider : r.carrier_name,
      carrier_connection_id: r.carrier_ref,
    },
    carrier_ref: r.carrier_ref,
    test_mode: r.test_mode,
  };
}
