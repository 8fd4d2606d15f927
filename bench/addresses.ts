/**
 * Address checks benchmark (`npm run bench:addresses`). Prints numbers; asserts nothing.
 *
 * 1. The offline checks (lib/addresses/offline-checks.ts) per address, in µs: a mix of US, Canadian, German and
 *    Japanese addresses, with and without a carrier named (line lengths, PO Box, transliteration).
 * 2. 1 000 distinct US addresses (houses the emulators know, so each verifies) validated as a client would send
 *    them (10 requests of 100, one after the other) through a UPS connection (one call per address), then a FedEx
 *    one (one call per 100), the carrier emulator answering after LATENCY_MS; then the same 1 000 again, answered
 *    from the organization's cache.
 *
 * Env: ADDRESSES (1000), LATENCY_MS (100), OFFLINE_ROUNDS (20000). Runs on an embedded database in a temporary
 * directory (DATABASE_URL unset) or on DATABASE_URL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkAddress } from "@/lib/addresses/offline-checks";
import type { CheckedAddress } from "@/lib/addresses/types";
import { validateAddresses } from "@/lib/addresses/validate-addresses";
import { sharedTokenCache } from "@/lib/carriers/http/token-cache";
import { forOrganization, systemContext } from "@/lib/context";
import { createConnection } from "@/lib/connections/create-connection";
import { closeDb, getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { createOrganization } from "@/lib/orgs/create-organization";
import { ConnectionCreate } from "@/lib/schemas/connection";
import { startCarrierEmulator } from "@/test/emulator";

process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
const dataDir = process.env.DATABASE_URL ? null : mkdtempSync(join(tmpdir(), "shipwell-bench-addresses-"));
if (dataDir) process.env.DATA_DIR = dataDir;
const ADDRESSES = Number(process.env.ADDRESSES ?? 1000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const OFFLINE_ROUNDS = Number(process.env.OFFLINE_ROUNDS ?? 20_000);

const base: CheckedAddress = {
  person_name: "Ada Lovelace",
  company_name: null,
  address_line1: "1100 Congress Ave",
  address_line2: null,
  city: "Austin",
  postal_code: "78701",
  state_code: "TX",
  country_code: "US",
  phone_number: "(512) 555-0100",
};
const MIX: CheckedAddress[] = [
  base,
  { ...base, postal_code: "60607" },
  { ...base, city: "Ottawa", postal_code: "K1A 0B1", state_code: "ON", country_code: "CA", phone_number: null },
  { ...base, city: "Berlin", postal_code: "10115", state_code: "", country_code: "DE", phone_number: "+49 30 1234567" },
  {
    ...base,
    company_name: "ソニー株式会社",
    city: "Minato-ku",
    postal_code: "108-0075",
    state_code: "",
    country_code: "JP",
  },
];

function offline() {
  for (const carrier of [null, "ups"] as const) {
    for (let i = 0; i < 500; i++) checkAddress(MIX[i % MIX.length]!, { carrier }); // warm-up
    const started = process.hrtime.bigint();
    for (let i = 0; i < OFFLINE_ROUNDS; i++) checkAddress(MIX[i % MIX.length]!, { carrier });
    const us = Number(process.hrtime.bigint() - started) / 1000 / OFFLINE_ROUNDS;
    console.log(
      `offline checks${carrier ? ` (carrier ${carrier})` : ""}: ${us.toFixed(1)} µs per address (${OFFLINE_ROUNDS} addresses)`,
    );
  }
}

const PROVIDERS = [
  {
    carrier_name: "ups",
    name: "UPS",
    credentials: { client_id: "bench", client_secret: "bench", account_number: "A1B2C3" },
  },
  {
    carrier_name: "fedex",
    name: "FedEx",
    credentials: { api_key: "bench", secret_key: "bench", account_number: "740561073" },
  },
] as const;

async function online() {
  const emulator = await startCarrierEmulator();
  process.env.CARRIER_EMULATOR_URL = emulator.url;
  resetEnvCache();
  try {
    for (const provider of PROVIDERS) await onlineWith(emulator, provider);
  } finally {
    await emulator.close();
  }
}

async function onlineWith(
  emulator: Awaited<ReturnType<typeof startCarrierEmulator>>,
  provider: (typeof PROVIDERS)[number],
) {
  const db = await getDb();
  const sys = systemContext(db, "bench");
  const org = await createOrganization({ ctx: sys, name: `bench ${provider.name}` });
  const ctx = forOrganization(sys, org.id);
  const input = ConnectionCreate.parse({
    carrier_name: provider.carrier_name,
    carrier_id: `${provider.carrier_name}-bench`,
    credentials: provider.credentials,
  });
  await createConnection({ ctx, input });
  const addresses = Array.from({ length: ADDRESSES }, (_, i) => ({
    ...base,
    // A stretch of Congress Ave both emulators know house by house (test/emulator/ups-address.ts): each verifies.
    address_line1: `${2000 + i} Congress Ave`,
  }));
  for (const pass of ["first (carrier calls)", "repeat (cache)"]) {
    emulator.reset();
    emulator.set(provider.carrier_name, { latency_ms: LATENCY_MS });
    sharedTokenCache.clear();
    const started = performance.now();
    const statuses = new Map<string, number>();
    for (let i = 0; i < addresses.length; i += 100) {
      const results = await validateAddresses({
        ctx,
        input: { addresses: addresses.slice(i, i + 100), carrier_ids: [] },
      });
      for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    const ms = performance.now() - started;
    const calls = emulator.calls.filter((c) => c.operation === "address_validation").length;
    console.log(
      `${ADDRESSES} addresses, ${provider.name} emulator @${LATENCY_MS} ms, ${pass}: ${(ms / 1000).toFixed(2)} s, ` +
        `${calls} carrier calls, ${Math.round((ADDRESSES / ms) * 1000)} addresses/s, ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }
}

async function main() {
  offline();
  await online();
  await closeDb();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

void main();
