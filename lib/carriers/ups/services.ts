import type { ServiceDeclaration } from "@/lib/carriers/types";

/**
 * UPS service codes (Shipping.yaml `Shipment.Service.Code`; karrio's ServiceCode/ServiceZone tables). One code can
 * carry different names by origin: "13" is Next Day Air Saver from the US and Express Saver from Canada, "65" is
 * Worldwide Saver from the US and Express Saver from Canada. The declared name is the US one; `serviceName` gives
 * the name for a shipment's origin.
 */

interface UpsService extends ServiceDeclaration {
  /** Names for origins where UPS calls the same code something else. */
  byOrigin?: ReadonlyMap<string, string>;
}

const EU_ORIGINS = [
  "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GR", "HR", "HU", "IE", "IT", "LT", "LU",
  "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
]; // prettier-ignore

/** The same name from every European origin. */
const fromEurope = (name: string): [string, string][] => EU_ORIGINS.map((c) => [c, name]);

export const UPS_SERVICES: readonly UpsService[] = [
  { code: "03", name: "UPS Ground", scope: "domestic" },
  { code: "12", name: "UPS 3 Day Select", scope: "both" },
  { code: "02", name: "UPS 2nd Day Air", scope: "domestic", byOrigin: new Map([["CA", "UPS Expedited"]]) },
  { code: "59", name: "UPS 2nd Day Air A.M.", scope: "domestic" },
  {
    code: "13",
    name: "UPS Next Day Air Saver",
    scope: "domestic",
    byOrigin: new Map([["CA", "UPS Express Saver"]]),
  },
  { code: "01", name: "UPS Next Day Air", scope: "domestic", byOrigin: new Map([["CA", "UPS Express"]]) },
  {
    code: "14",
    name: "UPS Next Day Air Early",
    scope: "domestic",
    byOrigin: new Map([["CA", "UPS Express Early"]]),
  },
  { code: "11", name: "UPS Standard", scope: "both" },
  {
    code: "65",
    name: "UPS Worldwide Saver",
    scope: "both",
    byOrigin: new Map([["CA", "UPS Express Saver"], ...fromEurope("UPS Express Saver")]),
  },
  {
    code: "07",
    name: "UPS Worldwide Express",
    scope: "both",
    byOrigin: new Map([["CA", "UPS Express"], ...fromEurope("UPS Express")]),
  },
  {
    code: "08",
    name: "UPS Worldwide Expedited",
    scope: "international",
    byOrigin: new Map([["CA", "UPS Expedited"], ...fromEurope("UPS Expedited")]),
  },
  {
    code: "54",
    name: "UPS Worldwide Express Plus",
    scope: "both",
    byOrigin: new Map([["CA", "UPS Express Early"], ...fromEurope("UPS Express Plus")]),
  },
  { code: "70", name: "UPS Access Point Economy", scope: "both" },
  { code: "74", name: "UPS Express 12:00", scope: "both" },
  { code: "17", name: "UPS Worldwide Economy DDU", scope: "international" },
  { code: "72", name: "UPS Worldwide Economy DDP", scope: "international" },
  { code: "96", name: "UPS Worldwide Express Freight", scope: "international" },
  { code: "71", name: "UPS Worldwide Express Freight Midday", scope: "international" },
];

const byCode = new Map(UPS_SERVICES.map((s) => [s.code, s]));

/** The name UPS uses for `code` from `origin` (ISO country), or null for a code we do not know. */
export function serviceName(code: string, origin: string): string | null {
  const service = byCode.get(code);
  if (!service) return null;
  return service.byOrigin?.get(origin.toUpperCase()) ?? service.name;
}
