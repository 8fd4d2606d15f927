import "server-only";
import { z } from "zod";
import { CARRIER_NAMES } from "@/lib/carriers/names";
import { getAdapter } from "@/lib/carriers/registry";
import type { CarrierDeclaration } from "@/lib/schemas/carrier";

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;

/**
 * Every carrier's declarations, in CARRIER_NAMES order: what a client (or the dashboard's connection form) needs to
 * offer a carrier without knowing it. The same for every organization, so computed once.
 */
let declarations: CarrierDeclaration[] | null = null;

export function listCarriers(): CarrierDeclaration[] {
  declarations ??= CARRIER_NAMES.map((name) => {
    const a = getAdapter(name)!;
    return {
      carrier_name: a.carrier_name,
      display_name: a.display_name,
      capabilities: [...a.capabilities],
      label_types: [...a.label_types],
      label_sizes: [...a.label_sizes],
      services: a.services.map((s) => ({ ...s })),
      credentials_schema: jsonSchema(a.credentialsSchema),
      config_schema: jsonSchema(a.configSchema),
      tracking_budget: {
        concurrency: a.trackingBudget.concurrency,
        requests_per_minute: a.trackingBudget.requestsPerMinute,
        batch_size: a.trackingBudget.batchSize,
      },
    };
  });
  return declarations;
}
