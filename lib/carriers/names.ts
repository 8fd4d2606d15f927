/**
 * Every carrier the service speaks, by `carrier_name`. No adapter code behind it, so schemas, the database layer
 * and browser code can import the list; lib/carriers/registry.ts maps each name to its adapter.
 */
export const CARRIER_NAMES = ["sandbox", "ups", "fedex", "usps", "dhl_express", "canadapost"] as const;
export type CarrierName = (typeof CARRIER_NAMES)[number];

export function isCarrierName(name: string): name is CarrierName {
  return (CARRIER_NAMES as readonly string[]).includes(name);
}
