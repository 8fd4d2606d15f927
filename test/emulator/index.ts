import { canadapostEmulator } from "./canadapost";
import { dhlExpressEmulator } from "./dhl_express";
import { fedexEmulator } from "./fedex";
import { startEmulator, type EmulatedCarrier, type Emulator } from "./server";
import { upsEmulator } from "./ups";
import { uspsEmulator } from "./usps";

/** Every carrier the emulator speaks; a new networked carrier adds its module here. */
const EMULATED_CARRIERS: EmulatedCarrier[] = [
  upsEmulator,
  fedexEmulator,
  uspsEmulator,
  dhlExpressEmulator,
  canadapostEmulator,
];

/** The emulator with every carrier, on a free loopback port unless one is given. */
export function startCarrierEmulator(opts: Parameters<typeof startEmulator>[1] = {}): Promise<Emulator> {
  return startEmulator(EMULATED_CARRIERS, opts);
}
