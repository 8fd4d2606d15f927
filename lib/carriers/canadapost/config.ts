import { z } from "zod";
import { cutoffTimeSchema, DEFAULT_CUTOFF } from "@/lib/carriers/ship-date";
import type { AdapterContext, LabelSize } from "@/lib/carriers/types";

/**
 * A Canada Post connection (docs/canadapost.md): the API key's two halves and the customer number (Basic auth and
 * `mailed-by` in every shipping URL) are credentials; whether the account has a parcel contract is config, since it
 * decides which API the labels are bought through and is no secret.
 */

const secret = z.string().trim().min(1).max(200);

export const canadapostCredentialsSchema = z.strictObject({
  /** The API key's user name (the part before the colon Canada Post shows). */
  api_username: secret.meta({ title: "API user name" }),
  /** The API key's password; writeOnly in its JSON Schema (GET /v1/carriers), so the connection form masks it. */
  api_password: secret.meta({ writeOnly: true, title: "API password" }),
  /** The customer number (mailed-by, 1–10 digits: common.xsd `CustomerIDType`). */
  customer_number: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, "must be 1 to 10 digits"),
});
export type CanadapostCredentials = z.infer<typeof canadapostCredentialsSchema>;

export function credentialsOf(ctx: AdapterContext): CanadapostCredentials {
  return canadapostCredentialsSchema.parse(ctx.connection.credentials);
}

/** The label stocks Canada Post prints (shipment.xsd `print-preferences/output-format`: `4x6` and `8.5x11`). */
export const CANADAPOST_LABEL_SIZES = ["4x6", "letter"] as const satisfies readonly LabelSize[];

const shape = {
  /**
   * The parcel contract (common.xsd `ContractIDType`): with it, labels are contract shipments and rates the
   * contract's; without it, non-contract shipments (Solutions for Small Business) at the account's prices.
   */
  contract_id: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, "must be 1 to 10 digits")
    .optional(),
  /** Contract shipments only: the stock labels are printed on (4×6 thermal, or a letter sheet). */
  label_size: z.enum(CANADAPOST_LABEL_SIZES).optional(),
  /**
   * Contract shipments only: true sends `transmit-shipment` (each label is transmitted as it is bought: no
   * end-of-day manifest, and a cancellation becomes a refund request); false (default) puts each label in the day's
   * group, voidable until the group is transmitted.
   */
  transmit_shipment: z.boolean().optional(),
  /** Where Canada Post answers a refund request (required by its refund request; a void after transmit needs it). */
  refund_email: z.email().max(60).optional(),
  cutoff_time: cutoffTimeSchema.optional(),
};

/**
 * ncshipment.xsd's `EmailType`: Canada Post takes a non-contract refund request's address only with a top-level
 * domain of 2 to 5 letters (shipment.xsd's, for contract shipments, has no upper bound).
 */
const NON_CONTRACT_EMAIL =
  /^(['_A-Za-z0-9\-+]+)(\.['_A-Za-z0-9\-+]+)*@([A-Za-z0-9-]+)(\.[A-Za-z0-9-]+)*(\.[A-Za-z]{2,5})$/;

/**
 * Refuses unknown keys, so a misspelt setting is not silently ignored, and a refund address Canada Post would refuse
 * on the day a label is cancelled.
 */
export const canadapostConfigSchema = z.strictObject(shape).superRefine((c, ctx) => {
  if (!c.contract_id && c.refund_email && !NON_CONTRACT_EMAIL.test(c.refund_email)) {
    ctx.addIssue({
      code: "custom",
      path: ["refund_email"],
      message: "Canada Post takes a non-contract refund address only with a top-level domain of 2 to 5 letters",
    });
  }
});

export interface CanadapostConfig {
  contractId: string | null;
  labelSize: (typeof CANADAPOST_LABEL_SIZES)[number];
  transmitShipment: boolean;
  refundEmail: string | null;
  cutoffTime: string;
}

/** The connection's settings with defaults; a value of the wrong type (edited behind the API) is the default. */
export function readCanadapostConfig(raw: Record<string, unknown>): CanadapostConfig {
  const parsed = z.object(shape).safeParse(raw);
  const c = parsed.success ? parsed.data : {};
  return {
    contractId: c.contract_id ?? null,
    labelSize: c.label_size ?? "4x6",
    transmitShipment: c.transmit_shipment ?? false,
    refundEmail: c.refund_email ?? null,
    cutoffTime: c.cutoff_time ?? DEFAULT_CUTOFF,
  };
}
