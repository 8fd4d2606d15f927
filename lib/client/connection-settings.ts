import type { FormFieldSpec } from "./schema-form";

/** Config keys every connection takes (docs/api.md, "Carrier connections"; lib/schemas/connection.ts). */
export const COMMON_CONFIG_FIELDS: FormFieldSpec[] = [
  { name: "deadline_ms", label: "Deadline (ms)", kind: "integer", required: false, min: 100, max: 120_000 },
  { name: "refresh_concurrency", label: "Tracking: calls at once", kind: "integer", required: false, min: 1, max: 64 },
  {
    name: "refresh_requests_per_minute",
    label: "Tracking: calls per minute",
    kind: "integer",
    required: false,
    min: 1,
    max: 100_000,
  },
  {
    name: "refresh_batch_size",
    label: "Tracking: numbers per call",
    kind: "integer",
    required: false,
    min: 1,
    max: 100,
  },
];

export interface TrackingBudget {
  concurrency: number;
  requests_per_minute: number;
  batch_size: number;
}

/** Hints naming each common key's default, so an empty field says what it means. */
export function commonConfigHints(budget: TrackingBudget): Record<string, string> {
  return {
    deadline_ms: "How long one carrier call may take, 100 to 120 000. Empty: the carrier's default.",
    refresh_concurrency: `Background tracking refreshes in flight at once (1–64). Empty: ${budget.concurrency}.`,
    refresh_requests_per_minute: `Tracking calls started per minute (1–100 000). Empty: ${budget.requests_per_minute}.`,
    refresh_batch_size: `Tracking numbers per call where the carrier batches (1–100). Empty: ${budget.batch_size}.`,
  };
}

/** A harmless quote for Test connection: a fixed domestic parcel (Chicago → Austin), nothing stored or bought. */
const TEST_RATE_ROUTE = {
  shipper: { city: "Chicago", state_code: "IL", postal_code: "60607", country_code: "US" },
  recipient: { city: "Austin", state_code: "TX", postal_code: "78701", country_code: "US" },
  parcels: [{ weight: 1, weight_unit: "LB", length: 10, width: 8, height: 4, dimension_unit: "IN" }],
} as const;

/**
 * Canada Post ships from Canada only, so its harmless quote is a domestic Canadian parcel (Ottawa → Toronto); a US
 * route would be refused before its credentials were ever sent.
 */
const CANADIAN_TEST_RATE_ROUTE = {
  shipper: { city: "Ottawa", state_code: "ON", postal_code: "K1A 0B1", country_code: "CA" },
  recipient: { city: "Toronto", state_code: "ON", postal_code: "M5V 3L9", country_code: "CA" },
  parcels: [{ weight: 1, weight_unit: "KG", length: 25, width: 20, height: 10, dimension_unit: "CM" }],
} as const;

/** The Test connection quote for a carrier: the fixed US parcel, or a route the carrier serves. */
export function testRateRoute(carrierName: string) {
  return carrierName === "canadapost" ? CANADIAN_TEST_RATE_ROUTE : TEST_RATE_ROUTE;
}
