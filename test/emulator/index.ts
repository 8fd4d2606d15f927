import { fedexEmulator } from "./fedex";
import { startEmulator, type EmulatedCarrier, type Emulator } from "./server";

/** Every carrier the emulator speaks; a new networked carrier adds its module here. */
const EMULATED_CARRIERS: EmulatedCarrier[] = [fedexEmulator];

/** The emulator with every carrier, on a free loopback port unless one is given. */
export function startCarrierEmulator(opts: { port?: number; now?: () => Date } = {}): Promise<Emulator> {
  return startEmulator(EMULATED_CARRIERS, opts);
}
