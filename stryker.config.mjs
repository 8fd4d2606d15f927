/**
 * Mutation testing of the rooms where a bug costs money or leaks data (docs/testing.md, "Mutation testing").
 * `npm run mutate` runs it; incremental, so only mutants in code or tests that changed since
 * mutation/incremental.json (committed) run again; `npm run mutate -- --force` runs everything.
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts", related: true },
  coverageAnalysis: "perTest",
  plugins: ["@stryker-mutator/vitest-runner"],
  // The rooms where a bug costs money or leaks data (docs/testing.md lists them and their scores).
  mutate: [
    // purchase, claim, record-purchase, cancel, the orphan-label void, a lost purchase settled, the label file
    "lib/shipments/{claim,record-purchase,purchase-shipment,cancel-shipment,void-orphan-label}.ts",
    "lib/shipments/{settle-lost-purchase,look-up-attempt,buy-proxy-label,record-retries,outcome-unknown,get-label}.ts",
    // idempotency, API keys and their cache, sessions and roles, the request's key check and limits
    "lib/api/{idempotency,authenticate,rate-limit}.ts",
    "lib/auth/{api-keys,sessions,roles,memberships,team,invitations}.ts",
    // connection credentials: encryption and the decrypted cache
    "lib/connections/{crypto,cache}.ts",
    "lib/short-cache.ts",
    // carrier deadlines, retries, tokens and the rates fan-out
    "lib/carriers/http/{client,deadline,retry,token-cache}.ts",
    "lib/carriers/invoke.ts",
    "lib/rates/fetch-rates.ts",
    // tracker claims and the refresh loop
    "lib/trackers/refresh/*.ts",
    "lib/trackers/refresh-tracker.ts",
    "lib/jobs/{refresh-trackers,scheduler}.ts",
    // webhook signing, the outbox and delivery
    "lib/webhooks/{sign,outbox,send-due,deliver,backoff,safe-fetch,due-deliveries,redeliver,retention}.ts",
    "lib/webhooks/{rotate-secret,endpoint-url}.ts",
    "lib/shipments/shipment-events.ts",
    "lib/trackers/tracker-events.ts",
    "lib/jobs/send-webhooks.ts",
    "!**/*.test.ts",
  ],
  // Static mutants (constants such as lock and cache lifetimes) are included on purpose.
  ignoreStatic: false,
  incremental: true,
  incrementalFile: "mutation/incremental.json",
  reporters: ["clear-text", "progress", "html"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  thresholds: { high: 95, low: 90, break: 90 },
  concurrency: 2,
  timeoutMS: 20_000,
  // The first run of every related test file, with coverage, takes minutes on two cores.
  dryRunTimeoutMinutes: 30,
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
