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

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * A rate a client sent back (proxy shipping), with the meta keys every rate carries filled in. Fields the client
 * left out (or sent with the wrong type) are empty: `""`, 0, `[]`, false (docs/api.md, "Proxy mode"). With the
 * connection that sells the label, its carrier names, id and test mode are the connection's own.
 */
export function rateFromInput(r: RateInput, connection?: RateSource): RateFields {
  const meta = r.meta ?? {};
  const carrierName = connection?.carrierName ?? r.carrier_name ?? "";
  const carrierRef = connection?.id ?? r.carrier_ref ?? "";
  const service = r.service ?? "";
  return {
    id: r.id ?? "",
    carrierName,
    carrierId: connection?.carrierId ?? r.carrier_id ?? "",
    currency: r.currency ?? "",
    service,
    discount: r.discount ?? 0,
    baseCharge: r.base_charge ?? 0,
    totalCharge: r.total_charge ?? 0,
    dutiesAndTaxes: r.duties_and_taxes ?? 0,
    transitDays: r.transit_days ?? 0,
    extraCharges: r.extra_charges ?? [],
    meta: {
      ...meta,
      service_name: text(meta.service_name) ?? service,
      rate_provider: text(meta.rate_provider) ?? carrierName,
      carrier_connection_id: carrierRef,
      // Every rate's meta has it (docs/api.md, "Responses"): null when the client's copy left it out.
      estimated_delivery: text(meta.estimated_delivery),
    },
    carrierRef,
    testMode: connection?.testMode ?? r.test_mode ?? false,
  };
}
