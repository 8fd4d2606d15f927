import type { Page } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, field, hydrated, signIn, slowLine, test } from "./fixtures";
import { fillLabel, TO } from "./label-form";

const shipTo = (page: Page) => page.getByRole("group", { name: "Ship to" });

test.describe("nothing typed is lost", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, OWNER);
    // Leaving a form with changes asks first (beforeunload): these tests reload and leave on purpose.
    page.on("dialog", (dialog) => void dialog.accept());
  });

  test("text typed before the page hydrates is kept as typed, on a throttled connection", async ({ page }) => {
    // A label bought first, so the page has a saved ship-from to prefill: the default typing must not be mixed with.
    await fillLabel(page, `SAVED-FROM-${Date.now()}`);
    await page.getByRole("button", { name: "Get rates" }).click();
    await expect(page.getByRole("radio", { name: /Sandbox/ }).first()).toBeChecked();
    await page.getByRole("button", { name: /^Buy label/ }).click();
    await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });

    // A poor mobile line: the server's HTML (with the form) arrives long before the scripts that hydrate it.
    const line = await slowLine(page);
    await page.goto("/shipments/new", { waitUntil: "commit" });
    const fromName = page.getByRole("group", { name: "Ship from" }).getByLabel(/^Name/);
    const company = shipTo(page).getByLabel(/^Company/);
    await expect(company).toBeVisible({ timeout: 90_000 });
    expect(await hydrated(company), "the form must still be server HTML when typing starts").toBe(false);
    await fromName.fill("Zeta Warehouse");
    await company.pressSequentially("Zeta Co");
    expect(await hydrated(company), "typing finished before hydration").toBe(false);

    await line.fast();
    await expect.poll(() => hydrated(company), { timeout: 90_000 }).toBe(true);
    await expect(fromName).toHaveValue("Zeta Warehouse");
    await expect(company).toHaveValue("Zeta Co");
    // And the form holds it, not only the input: a reload brings back the draft made from the form's values.
    await page.reload();
    await expect(page.getByRole("group", { name: "Ship from" }).getByLabel(/^Name/)).toHaveValue("Zeta Warehouse");
    await expect(shipTo(page).getByLabel(/^Company/)).toHaveValue("Zeta Co");
  });

  test("“Next label” after a purchase keeps ship-from and parcel, and starts the rest blank", async ({ page }) => {
    await fillLabel(page, `NEXT-${Date.now()}`);
    const from = page.getByRole("group", { name: "Ship from" });
    await from.getByLabel(/^Street address/).fill("77 Next Dock Rd");
    await field(page, "Weight").fill("3.75");
    await page.getByRole("button", { name: "Get rates" }).click();
    await expect(page.getByRole("radio", { name: /Sandbox/ }).first()).toBeChecked();
    await page.getByRole("button", { name: /^Buy label/ }).click();
    await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });

    // The toast's own button, from the keyboard's reach as from the mouse's.
    await page.locator("[data-sonner-toast]").getByRole("button", { name: "Next label" }).click();
    await expect(page).toHaveURL(/\/shipments\/new$/);
    await expect(from.getByLabel(/^Street address/)).toHaveValue("77 Next Dock Rd");
    await expect(field(page, "Weight")).toHaveValue("3.75");
    await expect(shipTo(page).getByLabel(/^Name/)).toHaveValue("");
    await expect(shipTo(page).getByLabel(/^Street address/)).toHaveValue("");
    await expect(field(page, "Reference")).toHaveValue("");
  });

  test("a reload keeps the draft, and leaving through a link asks first", async ({ page }) => {
    const reference = `DRAFT-${Date.now()}`;
    await fillLabel(page, reference);
    await page.reload();
    await expect(field(page, "Reference")).toHaveValue(reference);
    await expect(shipTo(page).getByLabel(/^Name/)).toHaveValue(TO.name);
    await expect(shipTo(page).getByLabel(/^ZIP code/)).toHaveValue(TO.postal);
    await expect(field(page, "Weight")).toHaveValue("2.5");

    await field(page, "Reference").fill(`${reference}-2`);
    const asked = page.waitForEvent("dialog");
    await page.getByRole("link", { name: "Trackers" }).first().click();
    expect((await asked).message()).toMatch(/^Leave this label\?/);
  });

  test("a session that ends mid-buy says so, and signing in returns to the same draft", async ({ page, context }) => {
    const reference = `EXPIRED-${Date.now()}`;
    await fillLabel(page, reference);
    await page.getByRole("button", { name: "Get rates" }).click();
    await expect(page.getByRole("radio", { name: /Sandbox/ }).first()).toBeChecked();
    // The address check that leaving a field started has answered: one still in flight when the cookies go would
    // meet the ended session first, and this test is about the purchase meeting it.
    const check = shipTo(page).getByRole("status").first();
    await expect(check).toHaveText(/verified|Checked|offline checks/);

    await context.clearCookies();
    await page.getByRole("button", { name: /^Buy label/ }).click();
    const dialog = page.getByRole("alertdialog", { name: "Your session ended: sign in again" });
    await expect(dialog).toBeVisible();
    await expect(page.getByText(/Provide an API key/)).toHaveCount(0);
    await dialog.getByRole("link", { name: "Sign in again" }).click();

    await expect(page).toHaveURL(/\/sign-in\?next=%2Fshipments%2Fnew/);
    await field(page, "Email").fill(OWNER.email);
    await field(page, "Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/shipments\/new$/);
    await expect(field(page, "Reference")).toHaveValue(reference);
    await expect(shipTo(page).getByLabel(/^Street address/)).toHaveValue(TO.street);
  });
});
