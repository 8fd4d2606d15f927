// @ts-check
/**
 * Mutation testing of the rooms where a bug costs money or leaks data (docs/testing.md, "Mutation testing").
 * `npm run mutate` runs it; incremental, so only mutants in code or tests that changed since
 * mutation/incremental.json (committed) run again; `npm run mutate -- --force` runs everything.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts", related: true },
  coverageAnalysis: "perTest",
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: [
    // purchase, claim, record-purchase, cancel, the orphan-label void and a lost purchase settled
    "lib/shipments/claim.ts",
    "lib/shipments/record-purchase.ts",
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
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
