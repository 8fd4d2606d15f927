import type { components as Rating } from "@/lib/carriers/ups/generated/rating";
import type { components as Shipping } from "@/lib/carriers/ups/generated/shipping";
import { currencyOf } from "@/lib/carriers/currencies";
import { optionNotHonoured, unusedOptionWarnings } from "@/lib/carriers/options";
import type { AdapterMessage, Parcel } from "@/lib/carriers/types";
import { readShippingOptions } from "@/lib/schemas/options";

/**
 * The typed options as UPS's service options (Shipping.yaml and Rating.yaml `ShipmentServiceOptions`,
 * `PackageServiceOptions`): Saturday delivery on the shipment, signature and declared value per package (per
 * shipment for a signature abroad, where UPS takes it only there), and a warning for each option not sent.
 */

/** The options UPS reads besides the typed ones (lib/carriers/ups/customs.ts: a third party's billing address). */
const UPS_OPTION_KEYS = ["declared_value", "ups_billing_country_code", "ups_billing_postal_code"];

/**
 * Services UPS delivers on a Saturday when asked (UPS Service Guide: Next Day Air, Next Day Air Early, 2nd Day Air,
 * and Worldwide Express, Express Plus and Saver to the places it serves on Saturdays); Ground and Standard never.
 */
const SATURDAY_SERVICES = new Set(["01", "14", "02", "07", "54", "65"]);

/**
 * Where UPS takes a signature per package: within the US and Puerto Rico, and within Canada (Shipping.yaml
 * `PackageServiceOptions_DeliveryConfirmation`, "Delivery Confirmation Origin-Destination Pairs" in the appendix).
 * Elsewhere it is the shipment's (`ShipmentServiceOptions_DeliveryConfirmation`, DCISType 1 or 2).
 */
const PACKAGE_SIGNATURE = new Set(["US/US", "US/PR", "PR/US", "PR/PR", "CA/CA"]);

// What both APIs take alike, so one mapping serves rating and shipping and the compiler checks it against each.
type Sent<K extends string, A, B> = Pick<A, K & keyof A> & Pick<B, K & keyof B>;
type ShipmentOptions = Sent<
  "SaturdayDeliveryIndicator" | "DeliveryConfirmation",
  Shipping["schemas"]["Shipment_ShipmentServiceOptions"],
  Rating["schemas"]["Shipment_ShipmentServiceOptions"]
>;
type PackageOptions = Sent<
  "DeliveryConfirmation" | "DeclaredValue",
  Shipping["schemas"]["Package_PackageServiceOptions"],
  Rating["schemas"]["Package_PackageServiceOptions"]
>;

interface UpsServiceOptions {
  shipment: ShipmentOptions | null;
  /** One per parcel, in order. */
  packages: (PackageOptions | null)[];
  messages: AdapterMessage[];
}

/** `service`: the one service bought or rated; null when rating every service (Shop). */
export function upsServiceOptions(
  req: { shipper: { country_code: string }; recipient: { country_code: string }; parcels: Parcel[] },
  options: Record<string, unknown>,
  service: string | null,
): UpsServiceOptions {
  const o = readShippingOptions(options);
  const messages = unusedOptionWarnings("ups", options, UPS_OPTION_KEYS);
  const origin = req.shipper.country_code.toUpperCase();
  const route = `${origin}/${req.recipient.country_code.toUpperCase()}`;
  const shipment: ShipmentOptions = {};

  if (o.saturdayDelivery) {
    if (service !== null && !SATURDAY_SERVICES.has(service)) {
      messages.push(
        optionNotHonoured("saturday_delivery", `UPS does not deliver service ${service} on Saturdays; not asked for.`),
      );
    } else {
      // An empty tag: its presence is the request (Shipping.yaml, SaturdayDeliveryIndicator).
      shipment.SaturdayDeliveryIndicator = "";
    }
  }
  if (o.fedexOneRate)
    messages.push(optionNotHonoured("fedex_one_rate", "One Rate is FedEx's pricing; UPS ignores it."));

  const perPackage = PACKAGE_SIGNATURE.has(route);
  const signature = o.signature === "none" ? null : o.signature;
  if (signature && !perPackage) {
    shipment.DeliveryConfirmation = { DCISType: signature === "adult" ? "2" : "1" };
  }
  const insurance = o.insurance;
  const share = insurance ? Math.ceil((insurance.amount / req.parcels.length) * 100) / 100 : 0;
  const packages = req.parcels.map((): PackageOptions | null => {
    const p: PackageOptions = {};
    if (signature && perPackage) p.DeliveryConfirmation = { DCISType: signature === "adult" ? "3" : "2" };
    if (insurance) {
      p.DeclaredValue = {
        CurrencyCode: insurance.currency ?? currencyOf(origin),
        MonetaryValue: share.toFixed(2),
      };
    }
    return Object.keys(p).length > 0 ? p : null;
  });
  return { shipment: Object.keys(shipment).length > 0 ? shipment : null, packages, messages };
}
