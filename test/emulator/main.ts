import { startCarrierEmulator } from "./index";
import { describeViolation } from "./server";

/**
 * `npm run emulator`: the carrier emulator alone, to try the adapters by hand. Point the service at it with
 * CARRIER_EMULATOR_URL, add a `ups`, `fedex` or `usps` connection with any credentials, and rate, ship, void and track.
 * EMULATOR_PORT picks the port (4010). Requests and answers that break a carrier's published contract are printed.
 */
async function main() {
  const port = Number(process.env.EMULATOR_PORT ?? 4010);
  const emulator = await startCarrierEmulator({
    port,
    // A request the carrier's published schema refuses is answered 400, as the carrier would; this says why.
    onViolation: (v) => console.warn(`The carrier's contract was broken: ${describeViolation(v)}`),
  });
  console.log(`Carrier emulator on ${emulator.url}
  Run the service against it:  CARRIER_EMULATOR_URL=${emulator.url} npm run dev
  Make a carrier misbehave:     curl -X POST ${emulator.url}/__emulator/ups/switches -d '{"fault":{"kind":"status","status":503}}'
  Put it right again:           curl -X POST ${emulator.url}/__emulator/reset`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
