import type { AdapterMessage, RateRequest, ShipRequest } from "@/lib/carriers/types";
import { optionNotHonoured, unusedOptionWarnings } from "@/lib/carriers/options";
import { readShippingOptions } from "@/lib/schemas/options";
import { cents, currencyOf } from "@/lib/carriers/currencies";

/**
 * The typed shipping options (lib/schemas/options.ts) as MyDHL value-added services. Insurance is DHL's Shipment
 * Insurance, `II` with its value and currency (the spec's Paperless Trade sample sends it so). DHL sells a signature
 * and Saturday delivery only as products and services of particular lanes, which a request cannot check here; those
 * are said to be unsent rather than asked for and refused after the rating.
 */

/** The `dhl_…` option keys this adapter reads; none yet. */
const DHL_OPTION_KEYS: readonly string[] = [];

export interface DhlServices {
  valueAddedServices: { serviceCode: string; value?: number; currency?: string }[];
  messages: AdapterMessage[];
}

export function dhlOptions(req: Pick<RateRequest | ShipRequest, "options" | "shipper">): DhlServices {
  const o = readShippingOptions(req.options);
  const messages = unusedOptionWarnings("dhl_express", req.options, DHL_OPTION_KEYS);
  const valueAddedServices: DhlServices["valueAddedServices"] = [];
  if (o.insurance && o.insurance.amount > 0) {
    valueAddedServices.push({
      serviceCode: "II",
      value: cents(o.insurance.amount),
      currency: (o.insurance.currency ?? currencyOf(req.shipper.country_code)).toUpperCase(),
    });
  }
  if (o.signature !== "none") {
    messages.push(
      optionNotHonoured(
        "signature_confirmation",
        "DHL Express takes a signature for every delivery by its own terms; no separate signature service was asked for.",
      ),
    );
  }
  if (o.saturdayDelivery) {
    messages.push(
      optionNotHonoured(
        "saturday_delivery",
        "DHL Express sells Saturday delivery (AA) only on some lanes; it was not asked for. DHL's rating lists it where it is offered.",
      ),
    );
  }
  return { valueAddedServices, messages };
}
