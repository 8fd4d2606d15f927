import type { Rate } from "@/lib/schemas/rate";
import type { Payment } from "@/lib/schemas/payment";

/** What every label purchase records beside the label, stored (purchase) or not (proxy shipping). */

/** The sender pays, in the rate's currency, unless the request (or the stored shipment) says otherwise. */
export function paymentFor(input: Payment | null, rateCurrency: string): Payment {
  return {
    paid_by: input?.paid_by ?? "sender",
    currency: input?.currency ?? rateCurrency,
    account_number: input?.account_number ?? null,
  };
}

/** The shipment's `meta` after a purchase: who rated it, the service's name, and the connection that bought it. */
export function purchaseMeta(connection: { id: string; carrierName: string }, selected: Rate) {
  return {
    rate_provider: connection.carrierName,
    service_name: selected.meta.service_name,
    carrier_connection_id: connection.id,
  };
}

/**
 * The options a label purchase passes to the carrier: a shipment's `customs` travel as `options.customs`, whether
 * stored (managed) or sent with the purchase (proxy shipping); without them an `options.customs` stays as given.
 */
export function carrierOptions(
  options: Record<string, unknown>,
  customs: Record<string, unknown> | null,
): Record<string, unknown> {
  return customs ? { ...options, customs } : options;
}
