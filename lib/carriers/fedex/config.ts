import { z } from "zod";
import type { LabelSize } from "@/lib/carriers/types";
import { cutoffTimeSchema, DEFAULT_CUTOFF } from "@/lib/carriers/ship-date";

/**
 * A FedEx connection's write-only credentials and its own `config` keys (docs/fedex.md).
 *
 * Credentials are a FedEx Developer Portal project's API key and secret key plus the FedEx account that pays.
 * Tracking may live in a project of its own at FedEx (its own key pair, its own quota): `track_api_key` and
 * `track_secret_key` then authenticate the tracking calls, and both must be given together.
 */
const secret = z.string().trim().min(1).max(200);

export const fedexCredentialsSchema = z
  .strictObject({
    api_key: secret,
    // writeOnly in their JSON Schema (GET /v1/carriers): a form masks them.
    secret_key: secret.meta({ writeOnly: true }),
    account_number: z
      .string()
      .trim()
      .regex(/^[0-9]{5,20}$/, "must be the FedEx account number, digits only"),
    track_api_key: secret.optional(),
    track_secret_key: secret.meta({ writeOnly: true }).optional(),
  })
  .superRefine((c, ctx) => {
    if ((c.track_api_key === undefined) !== (c.track_secret_key === undefined)) {
      const missing = c.track_api_key === undefined ? "track_api_key" : "track_secret_key";
      ctx.addIssue({ code: "custom", path: [missing], message: "is required with the other tracking key" });
    }
  });

export type FedexCredentials = z.infer<typeof fedexCredentialsSchema>;

const PICKUP_TYPES = ["DROPOFF_AT_FEDEX_LOCATION", "USE_SCHEDULED_PICKUP", "CONTACT_FEDEX_TO_SCHEDULE"] as const;
export type PickupType = (typeof PICKUP_TYPES)[number];

/**
 * The label sizes FedEx prints (ship-api.json `LabelSpecification.labelStockType`: PAPER_ and STOCK_ 4X6, 4X675,
 * 4X8, and PAPER_LETTER); the adapter declares them and a connection's `label_stock` is one of them.
 */
export const FEDEX_LABEL_SIZES = ["4x6", "4x6.75", "4x8", "letter"] as const satisfies readonly LabelSize[];
export type FedexLabelSize = (typeof FEDEX_LABEL_SIZES)[number];

const shape = {
  /** The stock labels are printed on: a label of 4×6, 4×6.75 or 4×8 in, or a letter sheet (not for ZPL). */
  label_stock: z.enum(FEDEX_LABEL_SIZES).optional(),
  /** How parcels reach FedEx; it changes the rates FedEx quotes. */
  pickup_type: z.enum(PICKUP_TYPES).optional(),
  /** The account's FedEx Ground Economy (SmartPost) hub: four digits from FedEx. Without it, no Ground Economy. */
  smart_post_hub_id: z
    .string()
    .trim()
    .regex(/^\d{4}$/, "must be the four-digit SmartPost hub id FedEx gave the account")
    .optional(),
  /** The daily cut-off at the origin (local `HH:MM`): later, or on a weekend, parcels leave the next business day. */
  cutoff_time: cutoffTimeSchema.optional(),
};

/** Unknown keys are refused, so a misspelt key is caught when the connection is saved. */
export const fedexConfigSchema = z.strictObject(shape);

// At call time the config also holds the layer's common keys (deadline_ms, refresh_…): ignore them.
const runtimeSchema = z.object(shape);

export interface FedexConfig {
  labelStock: FedexLabelSize;
  pickupType: PickupType;
  smartPostHubId: string | null;
  cutoffTime: string;
}

export function readFedexConfig(raw: Record<string, unknown>): FedexConfig {
  // Validated when the connection was saved; a value edited behind the API's back falls back to the default.
  const parsed = runtimeSchema.safeParse(raw);
  const c = parsed.success ? parsed.data : {};
  return {
    labelStock: c.label_stock ?? "4x6",
    pickupType: c.pickup_type ?? "DROPOFF_AT_FEDEX_LOCATION",
    smartPostHubId: c.smart_post_hub_id ?? null,
    cutoffTime: c.cutoff_time ?? DEFAULT_CUTOFF,
  };
}
