import type { ServiceDeclaration } from "@/lib/carriers/types";

/**
 * FedEx's service types (the `serviceType` enumeration of the Rate and Ship APIs, FedEx "Service Types" table) with
 * the names FedEx markets them under. `typicalDays` is the published transit time in business days, used only
 * when a rate answer carries neither a transit time nor a delivery date.
 */
interface FedexService extends ServiceDeclaration {
  typicalDays: number;
}

export const FEDEX_SERVICES: readonly FedexService[] = [
  { code: "FEDEX_GROUND", name: "FedEx Ground", scope: "both", typicalDays: 5 },
  { code: "GROUND_HOME_DELIVERY", name: "FedEx Home Delivery", scope: "domestic", typicalDays: 5 },
  // Quoted and sold only with the connection's `smart_post_hub_id` (conditional.ts).
  { code: "SMART_POST", name: "FedEx Ground Economy", scope: "domestic", typicalDays: 7 },
  { code: "FEDEX_EXPRESS_SAVER", name: "FedEx Express Saver", scope: "domestic", typicalDays: 3 },
  { code: "FEDEX_2_DAY", name: "FedEx 2Day", scope: "domestic", typicalDays: 2 },
  { code: "FEDEX_2_DAY_AM", name: "FedEx 2Day A.M.", scope: "domestic", typicalDays: 2 },
  { code: "STANDARD_OVERNIGHT", name: "FedEx Standard Overnight", scope: "domestic", typicalDays: 1 },
  { code: "PRIORITY_OVERNIGHT", name: "FedEx Priority Overnight", scope: "domestic", typicalDays: 1 },
  { code: "FIRST_OVERNIGHT", name: "FedEx First Overnight", scope: "domestic", typicalDays: 1 },
  { code: "INTERNATIONAL_FIRST", name: "FedEx International First", scope: "international", typicalDays: 2 },
  {
    code: "FEDEX_INTERNATIONAL_PRIORITY_EXPRESS",
    name: "FedEx International Priority Express",
    scope: "international",
    typicalDays: 2,
  },
  {
    code: "FEDEX_INTERNATIONAL_PRIORITY",
    name: "FedEx International Priority",
    scope: "international",
    typicalDays: 3,
  },
  { code: "INTERNATIONAL_ECONOMY", name: "FedEx International Economy", scope: "international", typicalDays: 5 },
  {
    code: "FEDEX_INTERNATIONAL_CONNECT_PLUS",
    name: "FedEx International Connect Plus",
    scope: "international",
    typicalDays: 5,
  },
];

// A Map: service codes come from clients and from FedEx's answers; only our own entries may answer for them.
const BY_CODE: ReadonlyMap<string, FedexService> = new Map(FEDEX_SERVICES.map((s) => [s.code, s]));

export function fedexService(code: string): FedexService | undefined {
  return BY_CODE.get(code);
}
