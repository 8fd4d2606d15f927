import { optionNotHonoured, unusedOptionWarnings } from "@/lib/carriers/options";
import type { AdapterMessage } from "@/lib/carriers/types";
import { readShippingOptions } from "@/lib/schemas/options";

/**
 * The typed options as USPS extra services (domestic-labels.yaml and shipping-options.yaml `ExtraService`: "921 -
 * Signature Confirmation", "922 - Adult Signature Required 21 or Over", "930 - Insurance <= $500", "931 - Insurance >
 * $500", "925 - Priority Mail Express Merchandise Insurance", "981 - Signature Requested (PRIORITY_MAIL_EXPRESS
 * only)"), with the insured value as `packageValue`, and a warning for each option not sent: none is dropped quietly.
 * Rates ask for the same extra services, so a quote includes their price.
 */

export interface UspsExtras {
  extraServices: number[];
  /** The insured amount in USD (`packageValue`); null without insurance. */
  packageValue: number | null;
  /**
   * domestic-labels.yaml `physicalSignatureRequired`: "required to include signature extra service code values such
   * as … 921, 922, …, 925, 931 … or 930 with a packageValue greater than 500".
   */
  physicalSignatureRequired: boolean;
  messages: AdapterMessage[];
}

const SIGNED = new Set([921, 922, 925, 931, 981]);

/** `service`: the mail class bought, or null when rating every class. */
export function uspsExtras(
  options: Record<string, unknown>,
  service: string | null,
  international: boolean,
): UspsExtras {
  const o = readShippingOptions(options);
  const messages = unusedOptionWarnings("usps", options, []);
  const extraServices: number[] = [];
  let packageValue: number | null = null;
  if (o.fedexOneRate)
    messages.push(optionNotHonoured("fedex_one_rate", "options.fedex_one_rate is a fedex option; usps ignores it."));
  if (o.saturdayDelivery) {
    messages.push(
      optionNotHonoured(
        "saturday_delivery",
        "USPS has no Saturday delivery service to ask for (its mail classes deliver on Saturdays as they do); nothing was sent.",
      ),
    );
  }
  const express = service === "PRIORITY_MAIL_EXPRESS";
  if (o.signature !== "none") {
    if (international) {
      messages.push(
        optionNotHonoured(
          "signature_confirmation",
          "USPS takes no signature service on international mail here; none was sent.",
        ),
      );
    } else if (o.signature === "adult") extraServices.push(922);
    else extraServices.push(express ? 981 : 921);
  }
  if (o.insurance) {
    if (international) {
      messages.push(optionNotHonoured("insurance", "Insurance on international mail is not sent to USPS here."));
    } else if (o.insurance.currency && o.insurance.currency !== "USD") {
      messages.push(optionNotHonoured("insurance", "USPS insures in USD only; the insurance was not sent."));
    } else {
      packageValue = Math.round(o.insurance.amount * 100) / 100;
      extraServices.push(express ? 925 : packageValue > 500 ? 931 : 930);
    }
  }
  return {
    extraServices,
    packageValue,
    physicalSignatureRequired: extraServices.some((c) => SIGNED.has(c)),
    messages,
  };
}
