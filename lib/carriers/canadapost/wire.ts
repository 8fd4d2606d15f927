import { optionNotHonoured, unusedOptionWarnings } from "@/lib/carriers/options";
import { carrierCode, type AdapterMessage, type Parcel } from "@/lib/carriers/types";
import { cents } from "@/lib/carriers/currencies";
import { oneParcel } from "@/lib/carriers/parcels";
import { convertLength, convertWeight } from "@/lib/carriers/units";
import { readShippingOptions } from "@/lib/schemas/options";
import type { Dimensions, OptionElement } from "./requests";

/**
 * What rating and shipping send alike (docs/canadapost.md, "Rates"): kilograms to 3 decimals and centimetres to 1,
 * rounded up (never under-declared); Canadian postal codes upper case without the space; options as `<option-code>`s.
 */

/** Up to `places` decimals, rounded up; the float noise of a conversion (2.5000000001) is not a step up. */
function ceilTo(value: number, places: number): number {
  const f = 10 ** places;
  return Math.ceil(Math.round(value * f * 1e6) / 1e6) / f;
}

export function weightKg(parcel: Parcel): number {
  return Math.max(0.001, ceilTo(convertWeight(parcel.weight, parcel.weight_unit, "KG"), 3));
}

export function dimensionsCm(parcel: Parcel): Dimensions | undefined {
  const { length, width, height } = parcel;
  if (!length || !width || !height) return undefined;
  const cm = (v: number) => Math.max(0.1, ceilTo(convertLength(v, parcel.dimension_unit ?? "CM", "CM"), 1));
  return { length: cm(length), width: cm(width), height: cm(height) };
}

/** `k1a 0b1` → `K1A0B1`. */
export const postalCode = (v: string) => v.replace(/\s+/g, "").toUpperCase();

/** Canada Post ships one parcel per shipment and prices one per call: a shipment of several is refused. */
export const oneCanadaPostParcel = (parcels: Parcel[]) =>
  oneParcel(parcels, "Canada Post ships and prices one parcel per shipment: make one shipment per parcel.");

/** A text cut to Canada Post's limit, with a warning naming the field (its schema would refuse the whole call). */
export function fit(value: string | null | undefined, limit: number, field: string, messages: AdapterMessage[]) {
  const v = value?.replace(/\s+/g, " ").trim();
  if (!v) return undefined;
  if (v.length <= limit) return v;
  messages.push({
    code: carrierCode("CANADAPOST_FIELD_TRUNCATED"),
    level: "warning",
    message: `${field} is longer than the ${limit} characters Canada Post takes; it was cut.`,
    details: { field, limit },
  });
  return v.slice(0, limit);
}

/** Our options as Canada Post's option codes (karrio `ShippingOption`; docs/canadapost.md, "Options"). */
export function optionCodes(options: Record<string, unknown>, messages: AdapterMessage[]): OptionElement[] {
  const typed = readShippingOptions(options);
  const out: OptionElement[] = [];
  // SO: signature; PA18: proof of age 18 (an adult signs; PA19 is for provinces where majority is 19).
  if (typed.signature === "standard") out.push({ "option-code": "SO" });
  if (typed.signature === "adult") out.push({ "option-code": "PA18" });
  if (typed.insurance) {
    if (typed.insurance.currency && typed.insurance.currency !== "CAD") {
      messages.push(
        optionNotHonoured(
          "insurance",
          "Canada Post covers amounts in CAD only; insurance in another currency was not sent.",
        ),
      );
    } else {
      out.push({ "option-code": "COV", "option-amount": cents(typed.insurance.amount) });
    }
  }
  if (typed.saturdayDelivery) {
    messages.push(optionNotHonoured("saturday_delivery", "Canada Post has no Saturday delivery option to ask for."));
  }
  if (typed.fedexOneRate) {
    messages.push(
      optionNotHonoured("fedex_one_rate", "options.fedex_one_rate is a FedEx option; Canada Post ignores it."),
    );
  }
  messages.push(...unusedOptionWarnings("canadapost", options, []));
  return out;
}
