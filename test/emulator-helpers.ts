import { afterAll, afterEach, beforeAll, vi } from "vitest";
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
export function useCarrierEmulator(): { readonly current: Emulator; skewMs: number } {
  // `skewMs` moves the emulator's clock ahead of the service's (parcels travel); back to 0 after each test.
  const holder = { skewMs: 0 } as { current: Emulator; skewMs: number };
  let previous: string | undefined;
  beforeAll(async () => {
    holder.current = await startCarrierEmulator({ now: () => new Date(Date.now() + holder.skewMs) });
    previous = process.env.CARRIER_EMULATOR_URL;
    process.env.CARRIER_EMULATOR_URL = holder.current.url;
    resetEnvCache();
  });
  afterEach(() => {
    vi.useRealTimers();
    holder.current.reset();
    holder.current.assertContractKept();
    sharedTokenCache.clear();
    holder.skewMs = 0;
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
