import { z } from "zod";

/** A whole number as a query writes it: digits only (not `0x10`, `1e3` or an empty value). */
export const queryCount = z
  .string()
  .regex(/^\d{1,9}$/, "must be a whole number")
  .transform(Number)
  .pipe(z.number().int());

export const PageQuery = z.object({
  limit: queryCount.pipe(z.number().min(1).max(100)).default(20).describe("Results per page, 1–100"),
  offset: queryCount.default(0).describe("Results to skip"),
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
