import type { Rate } from "@/lib/schemas/rate";

/** A sandbox-like rate for the create-label tests. */
export function rate(
  overrides: Partial<Rate> & { service_name?: string; estimated_delivery?: string | null } = {},
): Rate {
  const { service_name, estimated_delivery, ...fields } = overrides;
  const service = fields.service ?? "SBX_GROUND";
  return {
    id: `rat_${service}`,
    carrier_name: "sandbox",
    carrier_id: "sandbox",
    currency: "USD",
    service,
    discount: 0,
    base_charge: 10,
    total_charge: 10.85,
    duties_and_taxes: 0,
    transit_days: 5,
    extra_charges: [{ name: "Fuel surcharge", amount: 0.85, currency: "USD" }],
    meta: {
      service_name: service_name ?? "Sandbox Ground",
      rate_provider: "sandbox",
      carrier_connection_id: "car_1",
      estimated_delivery: estimated_delivery === undefined ? "2025-06-09" : estimated_delivery,
    },
    carrier_ref: "car_1",
    test_mode: true,
    ...fields,
  };
}
