import { convertWeight } from "@/lib/carriers/units";
import type { StoredRatePick, StoredRatePolicy, StoredRateRule } from "@/lib/db/schema";
import type { RateFields } from "@/lib/rates/present-rate";
import { bestRate, type RateFacts } from "@/lib/rates/rate-order";

export type Picked =
  | { ok: true; rate: RateFields; held: "price_cap" | null }
  | { ok: false; code: string; column: string | null; message: string };

/**
 * What a rules policy matches a row on: its parcels, where it goes, its goods' value. A CSV row's ShipmentCreate and
 * a stored shipment (GET /v1/shipments/{id}) both have these fields.
 */
export interface RowParcel {
  recipient: { country_code: string; state_code?: string | null; postal_code?: string | null };
  parcels: { weight: number; weight_unit: string }[];
  options?: Record<string, unknown> | null;
  customs?: {
    commodities?: { quantity: number; value_amount: number; value_currency: string }[] | null;
  } | null;
}

/** The row's own carrier and service columns (a CSV row's), which win over the policy's. */
interface RowChoice {
  carrier_ids: string[];
  services: string[];
}

/**
 * The batch's rate policy applied to one row's rates (pure): the row's own carrier and service columns (else the
 * pick's carrier_id and a fixed pick's service) narrow the candidates, then cheapest (ties: fastest), fastest (ties: cheapest) or the fixed service; a rules policy first
 * finds the pick (its first matching rule's, else the fallback's). Above the price cap (in its currency) the row
 * is held for a decision rather than failed.
 */
export function pickRate(
  rates: RateFields[],
  policy: StoredRatePolicy,
  row: RowChoice | null,
  parcel: RowParcel | null,
): Picked {
  const pick = policy.kind === "rules" ? rulePick(policy, parcel) : policy;
  const service = row?.services[0] ?? (pick.kind === "fixed" ? pick.service : null);
  // A pick's carrier_id narrows whatever its kind (a CSV row's own column wins); its service is the fixed kind's.
  const carrierId = row?.carrier_ids[0] ?? pick.carrier_id;
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
  // Cheapest and fastest mean what they mean on the create-label form (lib/rates/rate-order.ts); a fixed pick
  // among several connections' rates of its service takes the cheapest.
  const rate = bestRate(fits, pick.kind === "fastest" ? "fastest" : "cheapest", rateFacts)!;
  const cap = policy.price_cap;
  const held = cap && (rate.currency !== cap.currency || rate.totalCharge > cap.amount) ? "price_cap" : null;
  return { ok: true, rate, held };
}

const rateFacts = (r: RateFields): RateFacts => ({
  totalCharge: r.totalCharge,
  transitDays: r.transitDays,
  estimatedDelivery: typeof r.meta?.estimated_delivery === "string" ? r.meta.estimated_delivery : null,
});

/** The first rule matching the row picks; none matching (or nothing known of the parcel), the fallback does. */
function rulePick(policy: StoredRatePolicy, parcel: RowParcel | null): StoredRatePick {
  const rule = parcel ? policy.rules?.find((r) => matches(r, parcel)) : undefined;
  return rule?.pick ?? policy.fallback ?? { kind: "cheapest", carrier_id: null, service: null };
}

const within = (x: number, r: { min: number | null; max: number | null }) =>
  (r.min === null || x >= r.min) && (r.max === null || x <= r.max);

function matches(rule: StoredRateRule, parcel: RowParcel): boolean {
  if (rule.weight) {
    const unit = rule.weight.unit;
    const total = parcel.parcels.reduce((s, p) => s + convertWeight(p.weight, p.weight_unit.toUpperCase(), unit), 0);
    // To the gram (or its hundredth of a unit): a unit's conversion noise never tips a parcel out of its range.
    if (!within(Math.round(total * 1000) / 1000, rule.weight)) return false;
  }
  if (rule.destination) {
    const to = parcel.recipient;
    const d = rule.destination;
    if (to.country_code.toUpperCase() !== d.country_code) return false;
    if (d.state_code && (to.state_code ?? "").trim().toUpperCase() !== d.state_code) return false;
    const postal = (to.postal_code ?? "").toUpperCase().replace(/\s+/g, "");
    if (d.postal_prefix && !postal.startsWith(d.postal_prefix)) return false;
  }
  if (rule.value) {
    const value = declaredValue(parcel);
    if (!value || value.currency !== rule.value.currency || !within(value.amount, rule.value)) return false;
  }
  return true;
}

/** The goods' value: the customs declaration's (each commodity's value times its quantity), else the option's. */
function declaredValue(parcel: RowParcel): { amount: number; currency: string } | null {
  const items = parcel.customs?.commodities ?? [];
  if (items.length > 0) {
    return {
      amount: items.reduce((s, c) => s + c.value_amount * c.quantity, 0),
      currency: items[0]!.value_currency.toUpperCase(),
    };
  }
  const o = parcel.options ?? {};
  const amount = Number(o.declared_value);
  const currency = typeof o.currency === "string" ? o.currency.trim().toUpperCase() : "";
  return o.declared_value != null && Number.isFinite(amount) && currency !== "" ? { amount, currency } : null;
}
