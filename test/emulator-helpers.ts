import { afterAll, afterEach, beforeAll } from "vitest";
import { POST as createConnection } from "@/app/v1/connections/route";
import { sharedTokenCache } from "@/lib/carriers/http/token-cache";
import { resetEnvCache } from "@/lib/env";
import { startCarrierEmulator } from "@/test/emulator";
import type { Emulator } from "@/test/emulator/server";
import { call } from "./helpers";

/**
 * For a test file that drives networked carriers against the emulator: starts it once, points the service at it
 * (CARRIER_EMULATOR_URL), forgets switches, calls, sold labels and cached tokens after each test, and fails a test
 * that sent a request (or got an answer) the carrier's published contract does not allow.
 */
export function useCarrierEmulator(): { readonly current: Emulator } {
  const holder = {} as { current: Emulator };
  let previous: string | undefined;
  beforeAll(async () => {
    holder.current = await startCarrierEmulator();
    previous = process.env.CARRIER_EMULATOR_URL;
    process.env.CARRIER_EMULATOR_URL = holder.current.url;
    resetEnvCache();
  });
  afterEach(() => {
    holder.current.reset();
    holder.current.assertContractKept();
    sharedTokenCache.clear();
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.CARRIER_EMULATOR_URL;
    else process.env.CARRIER_EMULATOR_URL = previous;
    resetEnvCache();
    await holder.current.close();
  });
  return holder;
}

/** A connection of any carrier through the API, as a client makes one. */
export async function addConnection(
  key: string,
  body: {
    carrier_name: string;
    carrier_id: string;
    credentials?: Record<string, unknown>;
    config?: Record<string, unknown>;
    test_mode?: boolean;
  },
) {
  const res = await call(createConnection, "POST", "/v1/connections", { key, body });
  if (res.status !== 201) throw new Error(`connection not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; carrier_id: string };
}
