import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests against the production build (`npm run build` first) on a fresh embedded database, in Debian's
 * Chromium: Playwright's own browser download cannot work here.
 *
 * The runner and every worker load this file. The runner sets E2E_DATA_DIR and E2E_API_KEY on its first load and its
 * workers inherit them, so all agree on one server's folder and key. They are outputs of this file, not settings.
 * The folder is only named here (the server creates it), so `playwright test --list` leaves nothing behind.
 */
const port = Number(process.env.E2E_PORT ?? 3311);
const baseURL = `http://127.0.0.1:${port}`;
// The carrier emulator the server's UPS and FedEx connections talk to (test/emulator; README, "Adding a carrier").
const emulatorPort = Number(process.env.E2E_EMULATOR_PORT ?? port + 1000);
const emulatorURL = `http://127.0.0.1:${emulatorPort}`;
const dataDir = (process.env.E2E_DATA_DIR ??= join(tmpdir(), `shipwell-e2e-${randomBytes(6).toString("hex")}`));
const apiKey = (process.env.E2E_API_KEY ??= `e2e-${randomBytes(16).toString("hex")}`);

export default defineConfig({
  testDir: "e2e",
  forbidOnly: !!process.env.CI,
  // One retry in CI, for a stall of Debian's headless Chromium seen more than once: the page stops producing frames,
  // so requestAnimationFrame never fires and a click waits for "stable" until the test's limit (the DOM still
  // answers). A test that fails twice is still red, and the report names a test that passed only on its retry as
  // flaky.
  retries: process.env.CI ? 1 : 0,
  // Two cores and one database process: a second worker overlaps the tests that wait (the tracker refresh).
  workers: 2,
  // The longest flows check four or five pages (an axe scan and a screenshot each) and take ~60 s on two quiet cores;
  // the limit is there to stop a hung test, not to time a slow one.
  timeout: 150_000,
  reporter: [["list"], ["html", { open: "never" }]],
  outputDir: "test-results",
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    baseURL,
    // No single click, fill or screenshot takes this long on two busy cores; an action stuck in the stall above
    // fails here instead of holding the test to its 150 s limit.
    actionTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        browserName: "chromium",
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
          ],
        },
      },
    },
  ],
  webServer: [
    {
      // The emulator draws Canada Post labels with lib/labels (server-only: the react-server condition resolves it).
      command: "npx tsx --conditions=react-server test/emulator/main.ts",
      url: `${emulatorURL}/__emulator/calls`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
      env: { EMULATOR_PORT: String(emulatorPort) },
    },
    {
      // The seed writes the test accounts (e2e/accounts.ts) first: the embedded database admits one process at a time.
      command: `npx tsx --conditions=react-server e2e/seed.ts && exec npx next start -p ${port}`,
      url: `${baseURL}/api/health`,
      // A server already on the port is used as it is (locally only): give its key in E2E_API_KEY.
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      env: {
        DATA_DIR: dataDir,
        BOOTSTRAP_API_KEY: apiKey,
        LOG_LEVEL: "warn",
        REFRESH_TICK_SECONDS: "1",
        NEXT_TELEMETRY_DISABLED: "1",
        CARRIER_EMULATOR_URL: emulatorURL,
        // The browser tests sign the same two people in dozens of times a minute from one address; the login limits
        // themselves are tested in test/accounts.test.ts.
        SIGN_IN_RATE_LIMIT_PER_MINUTE: "1000",
        SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR: "1000",
        WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      },
    },
  ],
});
