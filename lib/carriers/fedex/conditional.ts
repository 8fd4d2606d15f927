import type { components as Ship } from "@/lib/carriers/fedex/generated/ship";
import { CarrierError, type Customs, type Parcel } from "@/lib/carriers/types";
import { weightIn } from "@/lib/carriers/fedex/wire";

/**
 * FedEx fields ship-api.json requires only in prose ("required for …"), so no schema check finds them missing.
 * Each rule quotes where the spec states it.
 */

export const GROUND_ECONOMY = "SMART_POST";

/**
 * Ground Economy (SMART_POST) needs the account's hub: components.schemas.SmartPostInfoDetail, "Required for
 * SMARTPOST service", with `hubId` (four digits) and `indicia` both required. The hub is the connection's config
 * (`smart_post_hub_id`); without one the service is not offered. The indicia by weight, as the spec's list gives
 * them: PRESORTED_STANDARD under 1 lb, PARCEL_SELECT from 1 lb (through 70 lb).
 */
export function smartPostInfoDetail(parcels: readonly Parcel[], hubId: string): SmartPostInfoDetail {
  const heaviest = Math.max(...parcels.map((p) => weightIn("imperial", p.weight, p.weight_unit)));
  return { hubId, indicia: heaviest < 1 ? "PRESORTED_STANDARD" : "PARCEL_SELECT" };
}

export function groundEconomyNeedsHub(): CarrierError {
  return new CarrierError(
    "not_supported",
    "FedEx Ground Economy (SMART_POST) needs the account's SmartPost hub: set smart_post_hub_id (four digits, from FedEx) in the connection's config.",
    { field: "service" },
  );
}

/**
 * RequestedPackageLineItem.subPackagingType: "Use it for all shipments inbound to Canada (CA) and inbound
 * shipments to the U.S. and Puerto Rico (PR) from Canada and Mexico (MX). subPackagingType is mandatory for
 * shipments to Canada." FedEx's list of values is a page outside the file; its examples are TUBE, CARTON,
 * CONTAINER, BUCKET: our tube is a TUBE, any other box of the shipper's a CARTON.
 */
export function subPackagingType(origin: string, destination: string, parcel: Parcel): string | null {
  const into =
    destination === "CA" || ((destination === "US" || destination === "PR") && ["CA", "MX"].includes(origin));
  if (!into) return null;
  return (parcel.packaging_type ?? "").trim().toLowerCase() === "tube" ? "TUBE" : "CARTON";
}

type RequestedShipment = Ship["schemas"]["Full_Schema_Ship"]["requestedShipment"];
type B13AFilingOption = NonNullable<
  NonNullable<NonNullable<RequestedShipment["customsClearanceDetail"]>["exportDetail"]>["b13AFilingOption"]
>;
type SmartPostInfoDetail = NonNullable<RequestedShipment["smartPostInfoDetail"]>;

// The compiler holds this list to the spec's enum (a value it does not have fails to compile).
const B13A_OPTIONS: ReadonlySet<string> = new Set<B13AFilingOption>([
  "NOT_REQUIRED",
  "MANUALLY_ATTACHED",
  "FILED_ELECTRONICALLY",
  "SUMMARY_REPORTING",
  "FEDEX_TO_STAMP",
]);
const isB13AOption = (v: unknown): v is B13AFilingOption => typeof v === "string" && B13A_OPTIONS.has(v);
// ExportDetail.b13AFilingOption: "Required for non-document shipments originating in Canada destinated for any
// country other than Canada, the United States, Puerto Rico, or the U.S. Virgin Islands."
const NO_B13A = new Set(["CA", "US", "PR", "VI"]);
// Canada asks for an export declaration (B13A, now filed through CERS) for goods worth CAD 2,000 or more going
// anywhere but the US; below that none is required (CBSA Memorandum D20-1-1).
const DECLARATION_FROM_CAD = 2000;

/**
 * The B13A filing option, or null where FedEx wants none: the client's own (`customs.options.fedex_b13a_filing_option`,
 * one of the spec's values), else FILED_ELECTRONICALLY with a proof-of-report number in `customs.aes`, else
 * NOT_REQUIRED for goods worth less than CAD 2,000. Anything else cannot be declared for the shipper: refused
 * before buying.
 */
export function b13aFilingOption(origin: string, destination: string, customs: Customs): B13AFilingOption | null {
  if (origin !== "CA" || NO_B13A.has(destination) || customs.content_type === "documents") return null;
  const chosen = customs.options.fedex_b13a_filing_option;
  if (chosen !== undefined) {
    if (isB13AOption(chosen)) return chosen;
    throw new CarrierError(
      "not_supported",
      `customs.options.fedex_b13a_filing_option must be one of ${[...B13A_OPTIONS].join(", ")}.`,
      { field: "customs.options.fedex_b13a_filing_option" },
    );
  }
  if (customs.aes) return "FILED_ELECTRONICALLY";
  const currency = customs.commodities[0]?.value_currency ?? customs.duty.currency;
  const value = customs.duty.declared_value ?? customs.commodities.reduce((s, c) => s + c.value_amount * c.quantity, 0);
  if (currency === "CAD" && value < DECLARATION_FROM_CAD) return "NOT_REQUIRED";
  throw new CarrierError(
    "not_supported",
    `FedEx needs the B13A filing option for goods exported from Canada to ${destination}, and Canada requires an export declaration from CAD ${DECLARATION_FROM_CAD} (this shipment: ${currency ?? ""} ${value}): send its proof-of-report number in customs.aes, or the option in customs.options.fedex_b13a_filing_option.`,
    { field: "customs.aes" },
  );
}
