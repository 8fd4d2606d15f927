import { z } from "zod";

export const idParam = (prefix: string) =>
  z.object({ id: z.string().regex(new RegExp(`^${prefix}[0-9a-f]{32}$`), `must be a ${prefix} id`) });

export const boolQuery = z.enum(["true", "false"]).transform((v) => v === "true");

export const ConnectionListQuery = z.object({
  carrier_name: z.string().min(1).optional(),
  active: boolQuery.optional(),
});
