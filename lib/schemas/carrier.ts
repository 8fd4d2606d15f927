import { z } from "zod";

/** What `GET /v1/carriers` answers about each carrier the service speaks: its adapter's declarations. */
export const CarrierDeclaration = z
  .object({
    carrier_name: z.string(),
    display_name: z.string(),
    capabilities: z.array(z.string()),
    label_types: z.array(z.string()),
    label_sizes: z.array(z.string()),
    services: z.array(z.object({ code: z.string(), name: z.string(), scope: z.string() })),
    /** JSON Schema of a connection's write-only `credentials`; secret fields are `writeOnly` (mask them). */
    credentials_schema: z.record(z.string(), z.unknown()),
    /** JSON Schema of the carrier's own `config` keys (the common ones such as deadline_ms are in docs/api.md). */
    config_schema: z.record(z.string(), z.unknown()),
    tracking_budget: z.object({
      concurrency: z.number(),
      requests_per_minute: z.number(),
      batch_size: z.number(),
    }),
  })
  .meta({ id: "CarrierDeclaration" });
export type CarrierDeclaration = z.output<typeof CarrierDeclaration>;

export const CarrierList = z.object({ results: z.array(CarrierDeclaration) }).meta({ id: "CarrierList" });
