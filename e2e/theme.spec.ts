import { OWNER } from "./accounts";
import { expect, hydrated, signIn, test } from "./fixtures";

test.describe("dark mode", () => {
  test("follows the system, and the menu's choice holds over the system's from the first paint", async ({
    page,
    checkPage,
  }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(page, OWNER);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = await background();
    await checkPage(page, "shipments-dark");

    await page
      .getByRole("button", { name: /Account menu|Olivia/ })
      .first()
      .click();
    await page.getByRole("menuitemradio", { name: "Light" }).click();
    await expect(page.locator("html")).toHaveClass("light");
    expect(await background()).not.toBe(dark);

    // Chosen in a cookie the server reads: the page arrives with the class, before any script runs.
    await page.goto("/shipments/new", { waitUntil: "commit" });
    await expect(page.locator("html")).toHaveClass("light");
    // The class was there before any script; the menu opens once React has hydrated its button (a click on the
    // server's HTML before then does nothing, as it would for a person).
    const account = page.getByRole("button", { name: /Account menu|Olivia/ }).first();
    await expect.poll(() => hydrated(account), { timeout: 30_000 }).toBe(true);
    await account.click();
    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await page.keyboard.press("Escape");
    await page.emulateMedia({ colorScheme: "light" });
    await page.reload();
    await expect(page.locator("html")).toHaveClass("dark");
    expect(await background()).toBe(dark);
    await checkPage(page, "create-label-dark");
  });
});
