import { OWNER } from "./accounts";
import { expect, signIn, test } from "./fixtures";
import { fillLabel } from "./label-form";

const PAGES = [
  ["/", "overview"],
  ["/shipments", "shipments"],
  ["/shipments/new", "create-label"],
  ["/scan", "scan"],
  ["/trackers", "trackers"],
  ["/batches", "batches"],
  ["/settings", "settings"],
  ["/settings/webhooks", "webhooks"],
  ["/settings/team", "team"],
  ["/settings/account", "account"],
  ["/settings/parcels", "parcels"],
] as const;

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
    for (const [path, name] of PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} is wider than the screen by ${overflow} px`).toBeLessThanOrEqual(0);
      await checkPage(page, `mobile-${name}`);
    }

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
