import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the running app", () => {
  it("serves the home page, whose link opens the API document", async () => {
    const page = await browser.newPage();
    await page.goto(inject("baseUrl") + "/");
    await expect(page.getByRole("heading", { name: "Shipwell" }).isVisible()).resolves.toBe(true);
    mkdirSync("test-results", { recursive: true });
    await page.screenshot({ path: "test-results/home.png" });
    await page.getByRole("link", { name: "/v1/openapi.json" }).click();
    await page.waitForURL(/openapi\.json$/);
    const doc = JSON.parse((await page.locator("body").innerText()).trim());
    expect(doc.openapi).toBe("3.1.0");
  });

  it("answers the API from the same server with the bootstrap key", async () => {
    const res = await fetch(inject("baseUrl") + "/v1/connections", {
      headers: { Authorization: `Token ${inject("apiKey")}` },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results[0]).toMatchObject({ carrier_name: "sandbox", active: true });
  });
});
