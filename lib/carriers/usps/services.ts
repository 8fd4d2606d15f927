import type { ServiceDeclaration } from "@/lib/carriers/types";

/**
 * USPS mail classes sold as services, by USPS's own code (shipping-options.yaml `DomesticMailClass`,
 * `InternationalMailClass`; domestic-labels.yaml and international-labels.yaml `mailClass`). Global Express
 * Guaranteed is priced by shipping options but has no label in international-labels.yaml, so it is not sold here;
 * nor are the return services (no return labels yet) or USPS Connect (local and regional delivery from the
 * account's own facilities, which needs their entry facility).
 */
export const USPS_SERVICES: readonly ServiceDeclaration[] = [
  { code: "USPS_GROUND_ADVANTAGE", name: "USPS Ground Advantage", scope: "domestic" },
  { code: "PRIORITY_MAIL", name: "Priority Mail", scope: "domestic" },
  { code: "PRIORITY_MAIL_EXPRESS", name: "Priority Mail Express", scope: "domestic" },
  { code: "PARCEL_SELECT", name: "Parcel Select", scope: "domestic" },
  { code: "MEDIA_MAIL", name: "Media Mail", scope: "domestic" },
  { code: "LIBRARY_MAIL", name: "Library Mail", scope: "domestic" },
  { code: "BOUND_PRINTED_MATTER", name: "Bound Printed Matter", scope: "domestic" },
  {
    code: "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE",
    name: "First-Class Package International Service",
    scope: "international",
  },
  { code: "PRIORITY_MAIL_INTERNATIONAL", name: "Priority Mail International", scope: "international" },
  { code: "PRIORITY_MAIL_EXPRESS_INTERNATIONAL", name: "Priority Mail Express International", scope: "international" },
];

const BY_CODE = new Map(USPS_SERVICES.map((s) => [s.code, s]));

/** The declared service for a code (a client's text is looked up in the Map, never on an object). */
export function uspsService(code: string): ServiceDeclaration | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}
