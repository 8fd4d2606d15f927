import { z } from "zod";
import { blankIsNull, optionalText } from "./common";

const PAID_BY = ["sender", "recipient", "third_party"] as const;

export const PaymentInput = z
  .object({
    paid_by: blankIsNull(z.enum(PAID_BY)).transform((v) => v ?? "sender"),
    currency: blankIsNull(
      z
        .string()
        .regex(/^[A-Za-z]{3}$/, "must be a three-letter currency code")
        .transform((v) => v.toUpperCase()),
    ).transform((v) => v ?? null),
    account_number: optionalText(50),
  })
  .meta({ id: "PaymentInput" });
export type PaymentInput = z.output<typeof PaymentInput>;

export const Payment = z
  .object({ paid_by: z.string(), currency: z.string().nullable(), account_number: z.string().nullable() })
  .meta({ id: "Payment" });
export type Payment = z.output<typeof Payment>;
