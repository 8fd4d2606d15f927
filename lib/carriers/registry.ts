import type { CarrierAdapter } from "./types";
import { sandboxAdapter } from "./sandbox/adapter";

/**
 * Every carrier the service speaks, by carrier_name. Adding a carrier = adding its adapter here; the `satisfies`
 * keeps the map exhaustive over CARRIER_NAMES.
 */
export const CARRIER_NAMES = ["sandbox"] as const;
export type CarrierName = (typeof CARRIER_NAMES)[number];

const adapters = {
  sandbox: sandboxAdapter,
} satisfies Record<CarrierName, CarrierAdapter>;

export function isCarrierName(name: string): name is CarrierName {
  return (CARRIER_NAMES as readonly string[]).includes(name);
}

export function getAdapter(name: string): CarrierAdapter | null {
  return isCarrierName(name) ? adapters[name] : null;
}

export function listAdapters(): CarrierAdapter[] {
  return CARRIER_NAMES.map((n) => adapters[n]);
}
