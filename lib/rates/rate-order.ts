/**
 * The one rule for "cheapest" and "fastest": a batch's rate policy (lib/batches/rate-policy.ts) and the create-label
 * form (lib/client/create-label/rates-view.ts) both order by it. Pure and without imports, so the browser runs it too.
 */
export interface RateFacts {
  totalCharge: number;
  transitDays: number;
  /** The carrier's own delivery date (YYYY-MM-DD), when it gave one. */
  estimatedDelivery?: string | null;
}

type RateKind = "cheapest" | "fastest";

/** Money compared in whole cents: floats would call 0.1 + 0.2 dearer than 0.3. */
export const cents = (amount: number) => Math.round(amount * 100);

/** A carrier that gives no transit time (0) is not fast: it sorts after every rate that gives one. */
const days = (r: RateFacts) => (r.transitDays > 0 ? r.transitDays : Number.POSITIVE_INFINITY);
const delivery = (r: RateFacts) => r.estimatedDelivery ?? "9999-12-31";

/** The speed alone: fewer transit days, then the earlier delivery date. */
export function bySpeedOnly(a: RateFacts, b: RateFacts): number {
  return days(a) - days(b) || delivery(a).localeCompare(delivery(b));
}

/** Cheapest first; a tie goes to the faster. */
export function cheaperFirst(a: RateFacts, b: RateFacts): number {
  return cents(a.totalCharge) - cents(b.totalCharge) || bySpeedOnly(a, b);
}

/** Fastest first; a tie goes to the cheaper. */
function fasterFirst(a: RateFacts, b: RateFacts): number {
  return bySpeedOnly(a, b) || cents(a.totalCharge) - cents(b.totalCharge);
}

/** Whether a rate says how fast it is (a fastest pick prefers one that does). */
export const knowsSpeed = (r: RateFacts) => days(r) !== Number.POSITIVE_INFINITY;

/** The first rate by the kind's order (a stable sort: equal rates keep the order they came in). */
export function bestRate<T>(rates: readonly T[], kind: RateKind, facts: (rate: T) => RateFacts): T | undefined {
  const order = kind === "fastest" ? fasterFirst : cheaperFirst;
  return [...rates].sort((a, b) => order(facts(a), facts(b)))[0];
}
