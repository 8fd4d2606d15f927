/**
 * Mutation testing of the rooms where a bug costs money or leaks data (docs/testing.md, "Mutation testing").
 * Run through `npm run mutate [room …] [-- stryker options]` (scripts/mutate.mjs): one Stryker run per room, over
 * that room's code, against that room's tests, with its own incremental file in mutation/ (committed), so a change
 * re-tests only the mutants it could affect. `--force` re-tests everything.
 */
export const rooms = {
  // purchase, claim, record-purchase, cancel, the orphan-label void, a lost purchase settled, the label file, refunds
  shipments: {
    mutate: [
      "lib/shipments/{claim,record-purchase,purchase-shipment,cancel-shipment,void-orphan-label}.ts",
      "lib/shipments/{settle-lost-purchase,look-up-attempt,buy-proxy-label,record-retries,outcome-unknown}.ts",
      "lib/shipments/{get-label,get-document,refunds,load-shipments}.ts",
      "lib/db/{json-rows,tx}.ts",
    ],
    tests: [
      "test/shipment-claim.test.ts",
      "test/shipment-leases.test.ts",
      "test/cancel-shipment.test.ts",
      "test/void-orphan-label.test.ts",
      "test/look-up-attempt.test.ts",
      "test/shipment-purchase-safety.test.ts",
      "test/purchase-outcome-unknown.test.ts",
      "test/batch-pacing-requests.test.ts",
      "test/shipments.test.ts",
      "test/proxy-shipping.test.ts",
      "test/purchase-refusals.test.ts",
      "test/customs.test.ts",
      "test/label-layouts.test.ts",
      "test/shipment-payment.test.ts",
      "test/shipment-documents.test.ts",
      "test/refunds.test.ts",
      "test/load-shipments.test.ts",
      "lib/shipments/*.test.ts",
      "lib/db/{json-rows,tx}.test.ts",
    ],
  },
  // idempotency, API keys and their cache, sessions, roles, the team and invitations, the request's key check and
  // limits (and their settle with Postgres), sign-in's limits, origins, sign-up policy and next path, connection
  // credentials (encryption and cache), the audit log (its rows, account changes, the list and its retention)
  access: {
    mutate: [
      "lib/api/{idempotency,authenticate,rate-limit,rate-limit-store,auth-endpoint}.ts",
      "lib/audit/{record,account,request-origin,list-audit-events,retention}.ts",
      "lib/auth/{api-keys,sessions,roles,memberships,team,invitations,open-invitations,site-origin,sign-up-policy}.ts",
      "lib/dashboard/next-path.ts",
      "lib/connections/{crypto,cache}.ts",
      "lib/short-cache.ts",
    ],
    tests: [
      "test/idempotency.test.ts",
      "test/api-behaviour.test.ts",
      "test/api-keys.test.ts",
      "test/authenticate.test.ts",
      "test/auth.test.ts",
      "test/accounts.test.ts",
      // The account endpoints' wrapper alone: its refusals, better-auth's answers, the outage, the shared limits.
      "test/auth-endpoint.test.ts",
      "test/team.test.ts",
      // The audit rows written by the keys', team's and invitations' verbs, the list and the pruning (lib/audit).
      "test/audit-log.test.ts",
      "test/audit-log-more.test.ts",
      // The shared buckets' upsert (Postgres only: the room runs on it).
      "test/rate-limit-store.test.ts",
      "test/encryption-key.test.ts",
      "test/connection-cache.test.ts",
      "test/unauthenticated-rate-limit.test.ts",
      "lib/api/*.test.ts",
      "lib/auth/site-origin.test.ts",
      "lib/connections/*.test.ts",
      "lib/short-cache.test.ts",
      "lib/dashboard/next-path.test.ts",
    ],
  },
  // carrier deadlines, retries, tokens and the rates fan-out; USPS's payment token and its refund verdicts (money)
  carriers: {
    mutate: [
      "lib/carriers/http/{client,deadline,retry,token-cache}.ts",
      "lib/carriers/invoke.ts",
      "lib/rates/fetch-rates.ts",
      "lib/carriers/usps/{auth,cancel}.ts",
    ],
    tests: [
      "lib/carriers/http/*.test.ts",
      "lib/carriers/invoke.test.ts",
      "test/proxy-rates.test.ts",
      "test/carrier-faults.test.ts",
      "lib/carriers/usps/adapter.test.ts",
      "lib/carriers/usps/auth.test.ts",
      "lib/carriers/usps/emulated.test.ts",
      // A batch's budget reaching the HTTP client's further requests (fetchRates passes the pace on).
      "test/batch-pacing-requests.test.ts",
    ],
  },
  // tracker claims and the refresh loop
  refresh: {
    mutate: [
      "lib/trackers/refresh/*.ts",
      "!lib/trackers/refresh/*.test.ts",
      "lib/trackers/refresh-tracker.ts",
      "lib/jobs/{refresh-trackers,scheduler}.ts",
    ],
    tests: [
      "test/tracker-refresh.test.ts",
      "test/tracker-reassign.test.ts",
      "test/tracker-refresh-rounds.test.ts",
      "test/refresh-jobs.test.ts",
      "test/trackers.test.ts",
      "lib/trackers/refresh/*.test.ts",
      "lib/jobs/scheduler.test.ts",
    ],
  },
  // the tracking merge: which events are new, whether the last event moved, the status a tracker and its shipment
  // take, and the carriers' status tables that status comes from
  tracking: {
    mutate: [
      "lib/trackers/{record-tracking,tracking-rules}.ts",
      "lib/shipments/status.ts",
      "lib/carriers/{ups,fedex,usps,dhl_express,canadapost}/status.ts",
    ],
    tests: [
      "test/tracking-merge.test.ts",
      "test/tracker-status-sync.test.ts",
      "test/shipment-status.test.ts",
      "test/lost-parcel.test.ts",
      "lib/trackers/tracking-rules.test.ts",
      // One pattern each: MUTATION_TESTS joins them with commas, so no braces here.
      "lib/carriers/ups/status.test.ts",
      "lib/carriers/fedex/status.test.ts",
      "lib/carriers/usps/status.test.ts",
      "lib/carriers/dhl_express/status.test.ts",
      "lib/carriers/canadapost/status.test.ts",
    ],
  },
  // webhook signing, the outbox and delivery
  webhooks: {
    mutate: [
      "lib/webhooks/{sign,outbox,send-due,deliver,backoff,safe-fetch,due-deliveries,redeliver,retention}.ts",
      "lib/webhooks/{rotate-secret,endpoint-url}.ts",
      "lib/shipments/shipment-events.ts",
      "lib/trackers/tracker-events.ts",
      "lib/jobs/{send-webhooks,endpoint-worker}.ts",
    ],
    tests: [
      "test/webhook-*.test.ts",
      "test/webhooks-api.test.ts",
      "lib/webhooks/*.test.ts",
      "lib/trackers/tracker-events.test.ts",
      "lib/shipments/shipment-events.test.ts",
    ],
  },
};

// Without a room (`npx stryker run`, or a tool reading this file): every room in one run.
const name = process.env.MUTATION_ROOM ?? "all";
const room =
  name === "all"
    ? { mutate: Object.values(rooms).flatMap((r) => r.mutate), tests: Object.values(rooms).flatMap((r) => r.tests) }
    : rooms[name];
if (!room) throw new Error(`MUTATION_ROOM must be one of ${Object.keys(rooms).join(", ")}`);
// Read by vitest.config.ts in Stryker's workers, which inherit this process's environment.
process.env.MUTATION_TESTS = room.tests.join(",");

export default {
  testRunner: "vitest",
  // The room's own tests (vitest.config.ts reads MUTATION_TESTS), not every file that imports the code: the outbox
  // and the shipment rows are imported by nearly the whole suite.
  vitest: { configFile: "vitest.config.ts", related: false },
  coverageAnalysis: "perTest",
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: room.mutate,
  // Static mutants (constants such as lock and cache lifetimes) are included on purpose.
  ignoreStatic: false,
  incremental: true,
  incrementalFile: `mutation/${name}.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  thresholds: { high: 95, low: 90, break: 90 },
  concurrency: 2,
  timeoutMS: 20_000,
  // The first run of the room's tests, with coverage, takes minutes on two cores.
  dryRunTimeoutMinutes: 30,
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
