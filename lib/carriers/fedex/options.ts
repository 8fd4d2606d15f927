import type { components as Rate } from "@/lib/carriers/fedex/generated/rate";
import type { components as Ship } from "@/lib/carriers/fedex/generated/ship";
import { currencyOf } from "@/lib/carriers/currencies";
import { GROUND_ECONOMY } from "@/lib/carriers/fedex/conditional";
import { optionNotHonoured, unusedOptionWarnings } from "@/lib/carriers/options";
import { CarrierError, type AdapterMessage, type Parcel } from "@/lib/carriers/types";
import { readShippingOptions } from "@/lib/schemas/options";

/**
 * The typed options and packaging as FedEx's (ship-api.json and rate-api.json `requestedShipment`): the packaging
 * type, `shipmentSpecialServices` SATURDAY_DELIVERY and FEDEX_ONE_RATE, per package a SIGNATURE_OPTION with its
 * `signatureOptionType` and a `declaredValue`. The specs type special services and packaging as free strings and
 * name the values only in FedEx's reference guide ("Package Types", "Shipment Special Service Types"), so the
 * unions below are the guide's names: the compiler checks what we send against them.
 */

/** FedEx's packaging types (reference guide, "Package Types"). */
type FedexPackagingType =
  | "YOUR_PACKAGING"
  | "FEDEX_ENVELOPE"
  | "FEDEX_PAK"
  | "FEDEX_TUBE"
  | "FEDEX_BOX"
  | "FEDEX_SMALL_BOX"
  | "FEDEX_MEDIUM_BOX"
  | "FEDEX_LARGE_BOX"
  | "FEDEX_EXTRA_LARGE_BOX"
  | "FEDEX_10KG_BOX"
  | "FEDEX_25KG_BOX";

/** Shipment special services we ask for (reference guide, "Shipment Special Service Types"). */
type FedexShipmentService = "SATURDAY_DELIVERY" | "FEDEX_ONE_RATE" | "ELECTRONIC_TRADE_DOCUMENTS";

/** Our packaging names (and purplship's `fedex_*` ones) → FedEx's; anything else is the customer's own box. */
const PACKAGING = new Map<string, FedexPackagingType>([
  ["your_packaging", "YOUR_PACKAGING"],
  ["fedex_your_packaging", "YOUR_PACKAGING"],
  ["envelope", "FEDEX_ENVELOPE"],
  ["fedex_envelope", "FEDEX_ENVELOPE"],
  ["pak", "FEDEX_PAK"],
  ["fedex_pak", "FEDEX_PAK"],
  ["tube", "FEDEX_TUBE"],
  ["fedex_tube", "FEDEX_TUBE"],
  ["fedex_box", "FEDEX_BOX"],
  ["small_box", "FEDEX_SMALL_BOX"],
  ["fedex_small_box", "FEDEX_SMALL_BOX"],
  ["medium_box", "FEDEX_MEDIUM_BOX"],
  ["fedex_medium_box", "FEDEX_MEDIUM_BOX"],
  ["large_box", "FEDEX_LARGE_BOX"],
  ["fedex_large_box", "FEDEX_LARGE_BOX"],
  ["extra_large_box", "FEDEX_EXTRA_LARGE_BOX"],
  ["fedex_extra_large_box", "FEDEX_EXTRA_LARGE_BOX"],
  ["fedex_10kg_box", "FEDEX_10KG_BOX"],
  ["fedex_25kg_box", "FEDEX_25KG_BOX"],
]);

/** Ground services: FedEx delivers them on Saturdays by its own schedule, never as SATURDAY_DELIVERY. */
const GROUND_SERVICES = new Set(["FEDEX_GROUND", "GROUND_HOME_DELIVERY", GROUND_ECONOMY]);

/** One Rate is a US-domestic Express (and Ground) price for FedEx's own packaging (FedEx One Rate terms). */
const ONE_RATE_ROUTES = new Set(["US/US"]);

type PackageServices = Ship["schemas"]["PackageSpecialServicesRequested"] &
  Rate["schemas"]["PackageSpecialServicesRequested"];
type Money = Ship["schemas"]["Money"] & Rate["schemas"]["Money"];

interface FedexOptions {
  packagingType: FedexPackagingType;
  /** Shipment special services from the options (ETD is customs' to add). */
  shipmentServices: FedexShipmentService[];
  /** One per parcel, in order. */
  packages: { packageSpecialServices?: PackageServices; declaredValue?: Money }[];
  messages: AdapterMessage[];
}

const FEDEX_OPTION_KEYS = ["declared_value"];

/**
 * `service`: the one service bought or rated, null when rating all of them. `buying`: a signature FedEx cannot give
 * is refused before a label is bought (a parcel left without one, asked for one, would be a wrong purchase); in a
 * quote it is a warning.
 */
export function fedexOptions(
  req: { shipper: { country_code: string }; recipient: { country_code: string }; parcels: Parcel[] },
  options: Record<string, unknown>,
  service: string | null,
  buying: boolean,
): FedexOptions {
  const o = readShippingOptions(options);
  const messages = unusedOptionWarnings("fedex", options, FEDEX_OPTION_KEYS);
  const origin = req.shipper.country_code.toUpperCase();
  const route = `${origin}/${req.recipient.country_code.toUpperCase()}`;

  const chosen = req.parcels.map((p) => PACKAGING.get((p.packaging_type ?? "").trim().toLowerCase()));
  const first = chosen[0] ?? "YOUR_PACKAGING";
  // FedEx takes one packaging type per shipment.
  let packagingType: FedexPackagingType = chosen.every((c) => (c ?? "YOUR_PACKAGING") === first)
    ? first
    : "YOUR_PACKAGING";
  if (packagingType === "YOUR_PACKAGING" && chosen.some((c) => c && c !== "YOUR_PACKAGING")) {
    messages.push({
      code: "not_supported",
      level: "warning",
      message:
        "FedEx takes one packaging type per shipment; these parcels, packed differently, ship as YOUR_PACKAGING.",
      details: { field: "parcels.packaging_type" },
    });
  }
  if (service === GROUND_ECONOMY && packagingType !== "YOUR_PACKAGING") {
    messages.push({
      code: "not_supported",
      level: "warning",
      message: "FedEx Ground Economy takes only your own packaging; the parcels ship as YOUR_PACKAGING.",
      details: { field: "parcels.packaging_type" },
    });
    packagingType = "YOUR_PACKAGING";
  }

  const shipmentServices: FedexShipmentService[] = [];
  if (o.saturdayDelivery) {
    if (service !== null && GROUND_SERVICES.has(service)) {
      messages.push(
        optionNotHonoured(
          "saturday_delivery",
          `FedEx does not offer Saturday delivery with ${service}; not asked for.`,
        ),
      );
    } else shipmentServices.push("SATURDAY_DELIVERY");
  }
  if (o.fedexOneRate) {
    if (packagingType === "YOUR_PACKAGING") {
      messages.push(
        optionNotHonoured(
          "fedex_one_rate",
          "FedEx One Rate needs FedEx packaging (envelope, pak, tube or box); not asked for.",
        ),
      );
    } else if (!ONE_RATE_ROUTES.has(route)) {
      messages.push(
        optionNotHonoured("fedex_one_rate", "FedEx One Rate is for shipments within the US; not asked for."),
      );
    } else shipmentServices.push("FEDEX_ONE_RATE");
  }

  const signature = o.signature === "none" ? null : o.signature;
  if (signature && service === GROUND_ECONOMY) {
    const text = "FedEx Ground Economy delivers without a signature; choose another service for a signed delivery.";
    if (buying) throw new CarrierError("not_supported", text, { field: "options.signature_confirmation" });
    messages.push(optionNotHonoured("signature_confirmation", text));
  }
  const insurance = o.insurance;
  const share = insurance ? Math.ceil((insurance.amount / req.parcels.length) * 100) / 100 : 0;
  const packages = req.parcels.map(() => ({
    ...(signature && service !== GROUND_ECONOMY
      ? {
          packageSpecialServices: {
            specialServiceTypes: ["SIGNATURE_OPTION"],
            signatureOptionType: signature === "adult" ? ("ADULT" as const) : ("DIRECT" as const),
          },
        }
      : {}),
    ...(insurance ? { declaredValue: { amount: share, currency: insurance.currency ?? currencyOf(origin) } } : {}),
  }));
  return { packagingType, shipmentServices, packages, messages };
}

/**
 * Ground Economy quoted beside other services when a signature is wanted: left out with a warning, since buying it
 * would be refused (fedexOptions) and a quote the client cannot buy is no quote.
 */
export function signableQuotes<Q extends { service: string }>(
  quotes: Q[],
  options: Record<string, unknown>,
): { quotes: Q[]; messages: AdapterMessage[] } {
  if (readShippingOptions(options).signature === "none" || !quotes.some((q) => q.service === GROUND_ECONOMY)) {
    return { quotes, messages: [] };
  }
  return {
    quotes: quotes.filter((q) => q.service !== GROUND_ECONOMY),
    messages: [
      optionNotHonoured(
        "signature_confirmation",
        "FedEx Ground Economy delivers without a signature; it is not offered for this shipment.",
      ),
    ],
  };
}
