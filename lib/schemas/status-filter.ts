import { z } from "zod";

/**
 * A `?status=` filter: one status or several, comma-separated (`in_transit,out_for_delivery`), matching any of them.
 * An older API version's names reach this as a list of current names (lib/versions.ts), possibly empty when the
 * name it gave stands for no current status.
 */
export function statusFilter<S extends string>(statuses: readonly [S, ...S[]]) {
  const known: ReadonlySet<string> = new Set(statuses);
  return z.preprocess(
    (v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()) : v),
    z
      .array(z.string())
      .max(statuses.length * 2)
      .superRefine((names, ctx) => {
        const unknown = names.find((n) => !known.has(n));
        if (unknown !== undefined) {
          ctx.addIssue({
            code: "custom",
            message: `must be one or more of: ${statuses.join(", ")} (not "${unknown.slice(0, 40)}")`,
          });
        }
      })
      .transform((names) => names as S[]),
  );
}
