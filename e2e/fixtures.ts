import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";

export { expect };

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA: what the dashboard promises (issue 11). */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const BLOCKING = new Set(["serious", "critical"]);

/**
 * Collects every Content-Security-Policy violation Chromium reports in a browser context, in any of its pages and
 * frames: the `securitypolicyviolation` event each document fires (listened for by a script Playwright adds to every
 * new document, which the page's policy does not govern) and the console's "Content Security Policy" messages (which
 * also name a policy Chromium could not read). Returns the list, which grows as the context is used.
 */
export async function watchCsp(context: BrowserContext): Promise<string[]> {
  const found: string[] = [];
  await context.exposeBinding("__shipwellCspViolation", ({ frame }, text: string) => {
    found.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __shipwellCspViolation: (text: string) => void }).__shipwellCspViolation;
      report(`${e.effectiveDirective} refused ${e.blockedURI || "inline"}${e.sample ? ` (${e.sample})` : ""}`);
    });
  });
  context.on("console", (message) => {
    if (/content.security.policy/i.test(message.text())) found.push(`console: ${message.text()}`);
  });
  return found;
}

/** The `checkPage` fixture, for a spec's helper that takes it. */
export type CheckPage = (page: Page, name: string, within?: string[]) => Promise<void>;

type Fixtures = {
  /**
   * Scans the page with axe-core, failing on any serious or critical violation, and saves a full-page screenshot
   * to the report and to test-results/pages/<name>.png, so a person can look at every page after a run.
   * `within` (CSS selectors) scans only those parts: for a popup that hides the rest of the page from screen readers
   * while it is open (React Aria's combobox list); the page itself is scanned once the popup is closed.
   */
  checkPage: CheckPage;
  /**
   * A new browser context (another person, or no one signed in), watched as `page`'s is: a CSP violation in it fails
   * the test. Use it instead of `browser.newContext()`; it is closed at the test's end if the test did not.
   */
  newContext: () => Promise<BrowserContext>;
  /** Requests to the server with the bootstrap key (`Authorization: Token …`), relative to baseURL. */
  api: APIRequestContext;
};

type WorkerFixtures = {
  /** The bootstrap API key the config gave the server. */
  apiKey: string;
};

export const test = base.extend<Fixtures, WorkerFixtures>({
  apiKey: [
    async ({}, use) => {
      const key = process.env.E2E_API_KEY;
      if (!key) throw new Error("E2E_API_KEY is unset: run the browser tests with `playwright test`.");
      await use(key);
    },
    { scope: "worker" },
  ],

  api: async ({ playwright, baseURL, apiKey }, use) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Token ${apiKey}` },
    });
    await use(api);
    await api.dispose();
  },

  // Every page a test opens fails it on a CSP violation: a script or style the policy refuses (lib/security-headers.ts)
  // is a part of the page that stops working without an error a test would otherwise see. A spec that needs a second
  // browser context takes it from `newContext`, never `browser.newContext()`, which nothing watches.
  context: async ({ context }, use) => {
    const found = await watchCsp(context);
    await use(context);
    expect(found, "Content-Security-Policy violations").toEqual([]);
  },

  newContext: async ({ browser }, use) => {
    const opened: { context: BrowserContext; found: string[] }[] = [];
    await use(async () => {
      const context = await browser.newContext();
      opened.push({ context, found: await watchCsp(context) });
      return context;
    });
    for (const { context } of opened) await context.close();
    expect(
      opened.flatMap(({ found }) => found),
      "Content-Security-Policy violations",
    ).toEqual([]);
  },

  checkPage: async ({}, use, testInfo) => {
    await use(async (page, name, within) => {
      // The name becomes a file name and an attachment's title.
      if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`checkPage: name "${name}" is not kebab-case`);
      await test.step(`check page "${name}"`, async () => {
        await page.waitForLoadState("load");
        // A whole page has one title for screen readers to jump to. Not checked for a part of one (`within`), nor
        // behind an open dialog, which hides the rest of the page from screen readers (its own title leads).
        const dialogs = await page.getByRole("dialog").or(page.getByRole("alertdialog")).count();
        if (!within && dialogs === 0)
          await expect(page.getByRole("heading", { level: 1 }), `the h1 of "${name}"`).toHaveCount(1);
        // The screenshot first, so a page that fails the scan can still be seen.
        const body = await page.screenshot({ fullPage: true });
        await testInfo.attach(name, { body, contentType: "image/png" });
        const dir = join(testInfo.project.outputDir, "pages");
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, `${name}.png`), body);

        const axe = new AxeBuilder({ page }).withTags(AXE_TAGS);
        for (const selector of within ?? []) axe.include(selector);
        const results = await axe.analyze();
        if (results.violations.length > 0)
          await testInfo.attach(`${name}-axe.json`, {
            body: JSON.stringify(results.violations, null, 2),
            contentType: "application/json",
          });
        const blocking = results.violations
          .filter((v) => BLOCKING.has(v.impact ?? ""))
          .map((v) => {
            const targets = v.nodes.slice(0, 5).map((n) => n.target.join(" "));
            if (v.nodes.length > 5) targets.push(`${v.nodes.length - 5} more`);
            return `${v.id} (${v.impact}): ${v.help} — ${targets.join(", ")}`;
          });
        expect(blocking, `serious or critical accessibility violations on "${name}"`).toEqual([]);
      });
    });
  },
});

type NewUser = { name: string; email: string; password: string };

/**
 * A form control by its label's words, in the page or a part of it; a required field's label ends in a "*" that
 * screen readers do not read.
 */
export function field(scope: Page | Locator, label: string) {
  return scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s*\\*)?$`));
}

/** Signs up through the /sign-up form and expects the shipments list. */
export async function signUp(page: Page, user: NewUser): Promise<void> {
  await page.goto("/sign-up");
  await field(page, "Name").fill(user.name);
  await field(page, "Email").fill(user.email);
  await field(page, "Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/shipments(?:[?#]|$)/, { timeout: 30_000 });
}

/** Signs in through the /sign-in form and expects the shipments list. */
export async function signIn(page: Page, user: Pick<NewUser, "email" | "password">): Promise<void> {
  await page.goto("/sign-in");
  await field(page, "Email").fill(user.email);
  await field(page, "Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The first page after signing in is the server's first render of the dashboard when a run starts: on two busy
  // cores that alone has taken more than the default 5 s.
  await expect(page).toHaveURL(/\/shipments(?:[?#]|$)/, { timeout: 30_000 });
}

/** Whether React has taken the element over (hydrated it): it then carries React's own properties. */
export function hydrated(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactFiber")));
}

/**
 * Puts `page` on a poor mobile line (1.5 s latency, 200 kbit/s, the cache off, so every script of the next page
 * comes over it): the server's HTML, with its forms, arrives long before the scripts that hydrate it. The returned
 * `fast()` restores a fast line and the cache.
 */
export async function slowLine(page: Page): Promise<{ fast: () => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  const line = (latency: number, bytesPerSecond: number) =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await line(1500, (200 * 1024) / 8);
  return {
    fast: async () => {
      await line(0, -1);
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    },
  };
}
