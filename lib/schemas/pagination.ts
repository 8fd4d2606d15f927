import { z } from "zod";

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Results per page, 1–100"),
  offset: z.coerce.number().int().min(0).default(0).describe("Results to skip"),
});
export type PageQuery = z.output<typeof PageQuery>;

export const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      count: z.number().int(),
      next: z.string().nullable(),
      previous: z.string().nullable(),
      results: z.array(item),
    })
    .meta({ id });
