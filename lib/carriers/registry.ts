import "server-only";
import { canadapostAdapter } from "./canadapost/adapter";
import { isCarrierName, type CarrierName } from "./names";
import { dhlExpressAdapter } from "./dhl_express/adapter";
import { fedexAdapter } from "./fedex/adapter";
import { sandboxAdapter } from "./sandbox/adapter";
import type { CarrierAdapter } from "./types";
import { upsAdapter } from "./ups/adapter";
import { uspsAdapter } from "./usps/adapter";

/** Adding a carrier = its name in names.ts and its adapter here; the `satisfies` keeps the map exhaustive. */
const adapters = {
  sandbox: sandboxAdapter,
  ups: upsAdapter,
  fedex: fedexAdapter,
  usps: uspsAdapter,
  dhl_express: dhlExpressAdapter,
  canadapost: canadapostAdapter,
} satisfies Record<CarrierName, CarrierAdapter>;

export function getAdapter(name: string): CarrierAdapter | null {
  return isCarrierName(name) ? adapters[name] : null;
}
