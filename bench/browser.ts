/**
 * The dashboard bench's browser half: Debian's Chromium through playwright-core, signed in with a session cookie.
 * Weighs the JavaScript a page loads and times "Buy label" to the label preview. Prints nothing itself.
 */
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";

export interface Cookie {
  name: string;
  value: string;
}

/** Debian's Chromium (`apt-get install chromium`; CHROMIUM_PATH overrides): Playwright's own download cannot run here. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}

export async function signedInContext(browser: Browser, base: string, cookies: Cookie[]): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  await context.addCookies(cookies.map((c) => ({ ...c, url: base })));
  return context;
}

/** One GET asking for gzip: the bytes on the wire, and after gunzip. */
function compressedSize(url: string) {
  return new Promise<{ wire: number; decoded: number; gzip: boolean }>((resolve, reject) => {
    const req = request(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) return reject(new Error(`GET ${url} → ${res.statusCode}`));
        const gzip = res.headers["content-encoding"] === "gzip";
        resolve({ wire: body.length, decoded: gzip ? gunzipSync(body).length : body.length, gzip });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

export interface ScriptWeight {
  /** Scripts requested until the load event: what the page needs to start. */
  atLoad: { count: number; gzip: number; raw: number };
  /** Requested after it, until the network was idle (lazy chunks, prefetched routes). */
  later: { count: number; gzip: number; raw: number };
  /** Scripts the server did not gzip. */
  plain: number;
}

/** Every script the page loaded in a fresh context (empty cache), each fetched once more with gzip and weighed. */
export async function scriptWeight(browser: Browser, base: string, path: string, cookies: Cookie[]) {
  const context = await signedInContext(browser, base, cookies);
  const page = await context.newPage();
  const atLoad = new Set<string>();
  const later = new Set<string>();
  let loaded = false;
  page.on("load", () => (loaded = true));
  page.on("request", (r) => {
    if (r.resourceType() === "script") (loaded ? later : atLoad).add(r.url());
  });
  const res = await page.goto(base + path, { waitUntil: "networkidle" });
  if (res?.status() !== 200 || new URL(page.url()).pathname !== path)
    throw new Error(`${path} answered ${res?.status()} at ${page.url()}`);
  await context.close();
  const weight: ScriptWeight = {
    atLoad: { count: 0, gzip: 0, raw: 0 },
    later: { count: 0, gzip: 0, raw: 0 },
    plain: 0,
  };
  for (const [urls, sum] of [
    [atLoad, weight.atLoad],
    [[...later].filter((u) => !atLoad.has(u)), weight.later],
  ] as const) {
    for (const url of urls) {
      const size = await compressedSize(url);
      sum.count++;
      sum.gzip += size.wire;
      sum.raw += size.decoded;
      if (!size.gzip) weight.plain++;
    }
  }
  return weight;
}

// ---------------------------------------------------------------------------------------------------------------
// "Buy label" to the label preview, driven as a clerk would (the accessible names of components/shipments/create
// and components/labels).

const SHIP_FROM = { Name: "Bench Clerk", Street: "500 Industrial Way", City: "Chicago", State: "IL", Postal: "60607" };
const SHIP_TO = { Name: "Maya Lopez", Street: "12 Elm St", City: "Austin", State: "TX", Postal: "78701" };

/** Fills a text field or picks a select's option, whichever the form uses for that label. */
async function set(field: Locator, value: string): Promise<void> {
  if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
  else await field.fill(value);
}

async function fillAddress(page: Page, legend: string, a: typeof SHIP_FROM): Promise<void> {
  const group = page.getByRole("group", { name: legend });
  await set(group.getByLabel(/^Name/), a.Name);
  await set(group.getByLabel(/^Street address/), a.Street);
  await set(group.getByLabel(/^City/), a.City);
  await set(group.getByLabel(/^State/), a.State);
  await set(group.getByLabel(/^(ZIP|Postal)/), a.Postal);
}

export interface BuyTiming {
  /** Click → the shipment page's URL. */
  toDetail: number;
  /** Click → the label preview in the page: its file fetched and framed (PDF), an image loaded (PNG), text (ZPL). */
  toPreview: number;
  /** Click → Chromium's PDF viewer has the label (as good as painted); NaN when that cannot be read. */
  toViewer: number;
  shipmentId: string;
}

/** Chromium's PDF viewer (an extension frame inside the preview's) has loaded the document: its element's
 * `loadState_`, which is Chromium's own code rather than an API, hence false when it cannot be read in time. */
async function pdfViewerLoaded(page: Page, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const viewer = page.frames().find((f) => f.url().startsWith("chrome-extension://"));
    const state = await viewer
      ?.evaluate(() => (document.querySelector("pdf-viewer") as { loadState_?: string } | null)?.loadState_)
      .catch(() => undefined);
    if (state === "success") return true;
    if (state === "failed") return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

/** One label bought from a blank /shipments/new; the clock runs from the click on "Buy label" only. */
export async function buyLabelOnce(context: BrowserContext, base: string): Promise<BuyTiming> {
  const page = await context.newPage();
  try {
    const res = await page.goto(base + "/shipments/new", { waitUntil: "networkidle" });
    if (res?.status() !== 200) throw new Error(`/shipments/new answered ${res?.status()}`);
    await fillAddress(page, "Ship from", SHIP_FROM);
    await fillAddress(page, "Ship to", SHIP_TO);
    await set(page.getByRole("group", { name: "Parcel" }).getByLabel(/^Weight(?! unit)/), "2.5");
    await page.getByRole("button", { name: /^Get rates/ }).click();
    // exact: the sort toggle ("Sort rates by") is a radio group too.
    await page.getByRole("radiogroup", { name: "Rates", exact: true }).getByRole("radio").first().click();
    const buy = page.getByRole("button", { name: /^Buy label/ });
    await buy.click({ trial: true }); // visible, enabled and still: the clock starts with the click itself
    const started = performance.now();
    await buy.click();
    await page.waitForURL(/\/shipments\/shp_[0-9a-f]+/, { timeout: 30_000, waitUntil: "commit" });
    const toDetail = performance.now() - started;
    // PDF in a frame, PNG as an image, ZPL as its text (components/labels/label-preview.tsx).
    const preview = page
      .locator(
        'iframe[title^="Shipping label"], img[alt^="Shipping label"], pre[aria-label="ZPL commands of the label"]',
      )
      .first();
    await preview.waitFor({ state: "visible", timeout: 30_000 });
    const tag = await preview.evaluate((el) =>
      el instanceof HTMLImageElement && !el.complete
        ? new Promise<string>((resolve) => el.addEventListener("load", () => resolve(el.tagName), { once: true }))
        : el.tagName,
    );
    const toPreview = performance.now() - started;
    const toViewer =
      tag !== "IFRAME" ? toPreview : (await pdfViewerLoaded(page, 15_000)) ? performance.now() - started : NaN;
    const shipmentId = /shp_[0-9a-f]+/.exec(page.url())![0];
    return { toDetail, toPreview, toViewer, shipmentId };
  } catch (err) {
    const shot = join(tmpdir(), "shipwell-bench-buy-label.png");
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    throw new Error(`${(err as Error).message} (page: ${page.url()}, screenshot: ${shot})`);
  } finally {
    await page.close();
  }
}
