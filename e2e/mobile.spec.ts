import type { Page } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, field, signIn, test, type CheckPage } from "./fixtures";
import { fillLabel } from "./label-form";
import { shipmentThroughApi } from "./api-shipments";

const PAGES = [
  ["/", "overview"],
  ["/shipments", "shipments"],
  ["/shipments/new", "create-label"],
  ["/scan", "scan"],
  ["/trackers", "trackers"],
  ["/batches", "batches"],
  ["/settings/webhooks", "webhooks"],
  ["/settings/team", "team"],
  ["/settings/account", "account"],
  ["/settings/parcels", "parcels"],
] as const;

// The rest of Settings, checked by the second test: one test for all would pass its time limit on two busy cores.
const MORE_SETTINGS = [
  ["/settings/connections", "connections"],
  ["/settings/addresses", "addresses"],
  ["/settings/api-keys", "api-keys"],
  ["/settings/audit", "audit"],
] as const;

/**
 * The elements that reach past the screen's right edge while their parent does not, as short CSS paths: where a fix
 * belongs. One past the edge of a parent that scrolls or clips it (a table in its scroller) widens nothing.
 */
function sticksOut(page: Page): Promise<string> {
  return page.evaluate(() => {
    const past = (el: Element) => el.getBoundingClientRect().right > window.innerWidth + 0.5;
    const name = (el: Element) =>
      el.tagName.toLowerCase() +
      [...el.classList]
        .slice(0, 3)
        .map((c) => `.${CSS.escape(c)}`)
        .join("");
    const found = [...document.body.querySelectorAll("*")].filter(
      (el) =>
        past(el) &&
        el.parentElement &&
        !past(el.parentElement) &&
        getComputedStyle(el.parentElement).overflowX === "visible",
    );
    return found
      .slice(0, 5)
      .map((el) => `${el.parentElement ? `${name(el.parentElement)} > ` : ""}${name(el)}`)
      .join("; ");
  });
}

/** The page at `path` checked at this width: one h1, nothing wider than the screen, axe, a screenshot. */
async function fits(page: Page, checkPage: CheckPage, path: string, name: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  // Soft, so one run names every page that is too wide, each with what sticks out.
  const culprits = overflow > 0 ? await sticksOut(page) : "";
  expect.soft(overflow, `${path} is wider than the screen by ${overflow} px: ${culprits}`).toBeLessThanOrEqual(0);
  await checkPage(page, `mobile-${name}`);
}

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("no main page overflows sideways, each has an h1, and axe finds nothing serious", async ({
    page,
    checkPage,
  }) => {
    await signIn(page, OWNER);
    // A label bought at this width first, so the lists have rows to fit (the cheapest rate comes chosen).
    await fillLabel(page, `MOBILE-${Date.now()}`);
    await page.getByRole("button", { name: "Get rates" }).click();
    await expect(page.getByRole("radio", { name: /Sandbox/ }).first()).toBeChecked();
    await page.getByRole("button", { name: /^Buy label/ }).click();
    await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
    await checkPage(page, "mobile-shipment");
    for (const [path, name] of PAGES) await fits(page, checkPage, path, name);

    // The list's table scrolls inside its card, and its first column stays put while the others pass under it.
    await page.goto("/shipments");
    const table = page.locator('[data-slot="table-container"]').first();
    const [first, second] = [table.locator("th").nth(0), table.locator("th").nth(1)];
    const x = async (cell: typeof first) => (await cell.boundingBox())!.x;
    const before = [await x(first), await x(second)];
    await table.evaluate((el) => el.scrollBy({ left: 200 }));
    await expect.poll(() => table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    expect(await x(first)).toBe(before[0]);
    expect(await x(second)).toBeLessThan(before[1]!);
  });

  test("the rest of Settings, a tracker, a webhook endpoint, and the pages opened signed out fit too", async ({
    page,
    context,
    api,
    checkPage,
  }) => {
    await signIn(page, OWNER);
    for (const [path, name] of MORE_SETTINGS) await fits(page, checkPage, path, name);
    // A label bought through the API: its tracker, and the tracker's public page as a customer opens it.
    const { tracker_id: trackerId } = await shipmentThroughApi(api, { reference: `MOBILE-TRK-${Date.now()}` });
    await fits(page, checkPage, `/trackers/${trackerId}`, "tracker");
    const shared = await api.post(`/v1/trackers/${trackerId}/share`);
    expect(shared.status()).toBe(200);
    const { path: trackPage } = await shared.json();

    // A webhook endpoint with a long address and a delivery in its log (a test event to a closed port fails at once).
    const made = await api.post("/v1/webhooks", {
      data: {
        url: `http://127.0.0.1:9/hooks/${"a-rather-long-path-segment-".repeat(4)}${Date.now()}`,
        enabled_events: ["tracker.updated"],
        test_mode: true,
      },
    });
    expect(made.status()).toBe(201);
    const { id: endpointId } = await made.json();
    try {
      expect((await api.post(`/v1/webhooks/${endpointId}/test`)).ok()).toBe(true);
      await fits(page, checkPage, `/settings/webhooks/${endpointId}`, "webhook-endpoint");
    } finally {
      await api.delete(`/v1/webhooks/${endpointId}`);
    }

    // An invitation, made as a clerk makes one at this width.
    await page.goto("/settings/team");
    await page.getByRole("button", { name: "Invite" }).click();
    await field(page.getByRole("dialog"), "Email").fill(`mobile-${Date.now()}@e2e.test`);
    await page.getByRole("dialog").getByRole("button", { name: "Create invitation link" }).click();
    const invitation = new URL((await page.getByTestId("invite-link").innerText()).trim()).pathname;
    await page.getByRole("button", { name: "Done" }).click();

    // Signed out: the pages a customer or a newcomer opens.
    await context.clearCookies();
    await fits(page, checkPage, trackPage, "track");
    await fits(page, checkPage, invitation, "invite");
    await fits(page, checkPage, "/sign-in", "sign-in");
    await fits(page, checkPage, "/sign-up", "sign-up");
  });

  test("the navigation is a menu that closes once a page is chosen", async ({ page }) => {
    await signIn(page, OWNER);
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    const menu = page.getByRole("dialog");
    await menu.getByRole("link", { name: "Trackers" }).click();
    await expect(page).toHaveURL(/\/trackers$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Trackers" })).toBeVisible();
  });
});
