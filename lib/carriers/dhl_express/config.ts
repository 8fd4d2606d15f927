import { z } from "zod";
import type { LabelSize } from "@/lib/carriers/types";
import { cutoffTimeSchema, DEFAULT_CUTOFF } from "@/lib/carriers/ship-date";

/**
 * A DHL Express connection's write-only credentials and its own `config` keys (docs/dhl_express.md).
 *
 * MyDHL API authenticates every call with HTTP Basic: the API username and password DHL Express issues for MyDHL
 * (not a developer-portal key). The account that pays travels in each request body (`accounts[]`, typeCode shipper),
 * nine digits at DHL (the spec allows up to 12 characters).
 */
const secret = z.string().trim().min(1).max(200);

export const dhlCredentialsSchema = z.strictObject({
  username: secret,
  // writeOnly in their JSON Schema (GET /v1/carriers): a form masks it.
  password: secret.meta({ writeOnly: true }),
  account_number: z
    .string()
    .trim()
    .regex(/^[0-9]{6,12}$/, "must be the DHL Express account number, digits only"),
});

export type DhlCredentials = z.infer<typeof dhlCredentialsSchema>;

/**
 * The label stocks DHL prints, by its transport-label templates (the spec's `imageOptions.templateName` samples):
 * ECOM26_84_001 is the 4×6 in (and 8×4) thermal label, ECOM26_84_A4_001 the same label on an A4/letter sheet.
 */
export const DHL_LABEL_SIZES = ["4x6", "letter"] as const satisfies readonly LabelSize[];
export type DhlLabelSize = (typeof DHL_LABEL_SIZES)[number];

const shape = {
  /** The stock labels are printed on: a 4×6 in label, or a sheet (PDF only; ZPL stays 4×6). */
  label_stock: z.enum(DHL_LABEL_SIZES).optional(),
  /**
   * Ask for Paperless Trade (DHL's `WY` service) when a shipment's customs say `commercial_invoice`; false for an
   * account DHL has not enabled it for. Where the route does not allow it DHL ships without it (docs/dhl_express.md).
   */
  paperless_trade: z.boolean().optional(),
  /** The daily cut-off at the origin (local `HH:MM`): later, or on a weekend, parcels leave the next business day. */
  cutoff_time: cutoffTimeSchema.optional(),
};

/** Unknown keys are refused, so a misspelt key is caught when the connection is saved. */
export const dhlConfigSchema = z.strictObject(shape);

// At call time the config also holds the layer's common keys (deadline_ms, refresh_…): ignore them.
const runtimeSchema = z.object(shape);

export interface DhlConfig {
  labelStock: DhlLabelSize;
  paperlessTrade: boolean;
  cutoffTime: string;
}

export function readDhlConfig(raw: Record<string, unknown>): DhlConfig {
  // Validated when the connection was saved; a value edited behind the API's back falls back to the default.
  const parsed = runtimeSchema.safeParse(raw);
  const c = parsed.success ? parsed.data : {};
  return {
    labelStock: c.label_stock ?? "4x6",
    paperlessTrade: c.paperless_trade ?? true,
    cutoffTime: c.cutoff_time ?? DEFAULT_CUTOFF,
  };
}
