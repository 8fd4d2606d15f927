import { z } from "zod";
import { DIMENSION_UNITS, WEIGHT_UNITS } from "@/lib/carriers/types";
import { optionalText } from "./common";

const dimension = z
  .number()
  .positive()
  .max(10_000)
  .nullish()
  .transform((v) => v ?? null);

export const ParcelInput = z
  .object({
    weight: z.number().positive().max(100_000),
    weight_unit: z.preprocess((v) => (typeof v === "string" ? v.toUpperCase() : v), z.enum(WEIGHT_UNITS)),
    width: dimension,
    height: dimension,
    length: dimension,
    dimension_unit: z
      // `""` (or only spaces) is not given, like null (docs/api.md, "Requests").
      .preprocess(
        (v) => (typeof v === "string" ? (v.trim() === "" ? null : v.toUpperCase()) : v),
        z.enum(DIMENSION_UNITS).nullish(),
      )
      .transform((v) => v ?? null),
    packaging_type: optionalText(50).describe(
      "The carrier's own packaging: your_packaging (default), envelope, pak, tube, small_box, medium_box, large_box, " +
        "extra_large_box, pallet, or a carrier-named one (ups_pak, fedex_envelope, …); see docs/api.md, Options",
    ),
    package_preset: optionalText(50),
    description: optionalText(500),
    content: optionalText(500),
    // Null is not given, as for every field with a default (docs/api.md, "Requests").
    is_document: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
  })
  // Runs even when other fields failed, so a client sees every problem in one answer; hence the defensive reads.
  .superRefine(
    (p, ctx) => {
      const present = (v: unknown) => v !== null && v !== undefined;
      const given = [p.width, p.height, p.length].filter(present).length;
      if (given > 0 && given < 3) {
        for (const key of ["width", "height", "length"] as const) {
          if (!present(p[key]))
            ctx.addIssue({ code: "custom", path: [key], message: "is required when any dimension is given" });
        }
      }
      if (given > 0 && !present(p.dimension_unit)) {
        ctx.addIssue({ code: "custom", path: ["dimension_unit"], message: "is required when dimensions are given" });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value) },
  )
  .meta({ id: "ParcelInput" });
export type ParcelInput = z.output<typeof ParcelInput>;

export const Parcel = z
  .object({
    id: z.string().nullable(),
    weight: z.number(),
    weight_unit: z.string(),
    width: z.number().nullable(),
    height: z.number().nullable(),
    length: z.number().nullable(),
    dimension_unit: z.string().nullable(),
    packaging_type: z.string().nullable(),
    package_preset: z.string().nullable(),
    description: z.string().nullable(),
    content: z.string().nullable(),
    is_document: z.boolean(),
  })
  .meta({ id: "Parcel" });
export type Parcel = z.output<typeof Parcel>;
