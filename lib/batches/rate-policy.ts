import type { StoredRatePolicy } from "@/lib/db/schema";
import type { RateFields } from "@/lib/rates/present-rate";
import type { ShipmentCreate } from "@/lib/schemas/shipment";

export type Picked =
  | { ok: true; rate: RateFields; held: "price_cap" | null }
  | { ok: false; code: string; column: string | null; message: string };

/**
 * The batch's rate policy applied to one row's rates (pure): the row's own carrier and service columns narrow the
 * candidates, then cheapest (ties: fastest), fastest (ties: cheapest) or the fixed service. Above the price cap (in
 * its currency) the row is held for a decision rather than failed.
 */
export function pickRate(rates: RateFields[], policy: StoredRatePolicy, request: ShipmentCreate | null): Picked {
  const service = request?.services[0] ?? (policy.kind === "fixed" ? policy.service : null);
  const carrierId = request?.carrier_ids[0] ?? (policy.kind === "fixed" ? policy.carrier_id : null);
  const fits = rates.filter((r) => (!service || r.service === service) && (!carrierId || r.carrierId === carrierId));
  if (fits.length === 0) {
    return {
      ok: false,
      code: "service_unavailable",
      column: service ? "service" : carrierId ? "carrier_id" : null,
      message: service
        ? `the service ${service} is not offered for this parcel${carrierId ? ` by ${carrierId}` : ""}`
        : "no rate is offered for this parcel",
    };
  }
  const order =
    policy.kind === "fastest"
      ? (a: RateFields, b: RateFields) => a.transitDays - b.transitDays || a.totalCharge - b.totalCharge
      : (a: RateFields, b: RateFields) => a.totalCharge - b.totalCharge || a.transitDays - b.transitDays;
  const rate = [...fits].sort(order)[0]!;
  const cap = policy.price_cap;
  const held = cap && (rate.currency !== cap.currency || rate.totalCharge > cap.amount) ? "price_cap" : null;
  return { ok: true, rate, held };
}
