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
