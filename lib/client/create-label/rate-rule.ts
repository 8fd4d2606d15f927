import type { Rate } from "@/lib/schemas/rate";
import { bestRate, knowsSpeed } from "@/lib/rates/rate-order";
import { rateFacts, rateViews, serviceName } from "./rates-view";

/** The organization's rate rule as GET /v1/rate_rule answers it (docs/api.md, "Rate rule"). */
export interface RateRuleSetting {
  kind: "cheapest" | "fastest" | "fixed";
  carrier_id: string | null;
  service: string | null;
}

export const CHEAPEST_RULE: RateRuleSetting = { kind: "cheapest", carrier_id: null, service: null };

interface Preselection {
  rate: Rate | null;
  /** Why the rule could not be followed, said beside the rates; null when it was. */
  note: string | null;
}

const cheapest = (rates: readonly Rate[]) => rateViews(rates, "price").find((v) => v.cheapest)?.rate ?? null;

/** Prices in several currencies cannot be compared (rates-view.ts): then nothing is chosen, and the note says so. */
const UNCOMPARABLE = "Prices in several currencies cannot be compared: choose a rate.";

/** The cheapest instead of what the rule asked for, saying why; or nothing, saying why, when none is the cheapest. */
function cheapestInstead(rates: readonly Rate[], why: string, instead: string): Preselection {
  const rate = cheapest(rates);
  return { rate, note: rate ? `${why}: ${instead}` : `${why}. ${UNCOMPARABLE}` };
}

/**
 * The rate the form chooses when rates arrive, by the organization's rule: the cheapest (of one currency), the
 * fastest (of those that say how fast), or the fixed connection's service, else the cheapest, saying why.
 */
export function preselectRate(rates: readonly Rate[], rule: RateRuleSetting): Preselection {
  if (rates.length === 0) return { rate: null, note: null };
  if (rule.kind === "fastest") {
    const fastest = bestRate(
      rates.filter((r) => knowsSpeed(rateFacts(r))),
      "fastest",
      rateFacts,
    );
    if (fastest) return { rate: fastest, note: null };
    return cheapestInstead(rates, "No carrier said how fast its rates are", "the cheapest is chosen instead.");
  }
  if (rule.kind === "fixed") {
    const fixed = bestRate(
      rates.filter((r) => r.carrier_id === rule.carrier_id && r.service === rule.service),
      "cheapest",
      rateFacts,
    );
    if (fixed) return { rate: fixed, note: null };
    const named = rates.find((r) => r.service === rule.service);
    const service = named ? serviceName(named) : rule.service;
    return cheapestInstead(
      rates,
      `Your organization's rule picks ${service} (${rule.carrier_id}), which is not offered for this parcel`,
      "the cheapest rate is chosen instead.",
    );
  }
  const rate = cheapest(rates);
  return { rate, note: rate ? null : UNCOMPARABLE };
}

/** "the cheapest rate", "the fastest rate" or "Sandbox 2-Day (sandbox)", for the rates panel's line on the rule. */
export function ruleText(rule: RateRuleSetting): string {
  if (rule.kind === "fixed") return `${rule.service} (${rule.carrier_id})`;
  return `the ${rule.kind} rate`;
}
