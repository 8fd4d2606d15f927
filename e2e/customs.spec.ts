import type { Page } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, field, signIn, test } from "./fixtures";

/** A US → CA label: the form filled but for the customs section. */
async function fillToCanada(page: Page, reference: string) {
  await page.goto("/shipments/new");
  const from = page.getByRole("group", { name: "Ship from" });
  await from.getByLabel(/^Country/).selectOption("US");
  await from.getByLabel(/^Name/).fill("Olivia Owner");
  await from.getByLabel(/^Street address/).fill("500 Industrial Way");
  await from.getByLabel(/^City/).fill("Chicago");
  await from.getByLabel(/^State/).selectOption("IL");
  await from.getByLabel(/^ZIP code/).fill("60607");
  await from.getByLabel(/^Phone/).fill("+1 312 555 0100");

  const to = page.getByRole("group", { name: "Ship to" });
  await expect(page.getByRole("group", { name: "Customs" })).toHaveCount(0);
  await to.getByLabel(/^Country/).selectOption("CA");
  await to.getByLabel(/^Name/).fill("Chloé Client");
  await to.getByLabel(/^Street address/).fill("100 Queen St W");
  await to.getByLabel(/^City/).fill("Toronto");
  await to.getByLabel(/^Province/).selectOption("ON");
  await to.getByLabel(/^Postal code/).fill("M5H 2N2");
  await to.getByLabel(/^Phone/).fill("+1 416 555 0100");

  await field(page, "Weight").fill("2.5");
  await field(page, "Reference").fill(reference);
}

/** The first item of the declaration, all but its description. */
async function fillItem(page: Page) {
  const item = page.getByRole("group", { name: "Item 1" });
  await field(item, "Unit value").fill("12.50");
  await field(item, "HS code").fill("6109.10");
  await field(item, "Country of origin").selectOption("US");
  await field(item, "SKU").fill("TS-BLK-M");
  return item;
}

async function chooseInternationalRate(page: Page) {
  await page.getByRole("button", { name: "Get rates" }).click();
  // The first: another browser test may add a sandbox connection of its own to this organization meanwhile.
  const rate = page.getByRole("radio", { name: /Sandbox International/ }).first();
  await expect(rate).toBeVisible();
  await rate.click();
}

test.describe("customs on the create-label page", () => {
  test.beforeEach(async ({ page }) => signIn(page, OWNER));

  test("buys a US → CA label with one declared item and shows the customs on the shipment", async ({
    page,
    api,
    checkPage,
  }) => {
    const reference = `CUSTOMS-${Date.now()}`;
    await fillToCanada(page, reference);
    const customs = page.getByRole("group", { name: "Customs" });
    await expect(customs).toBeVisible();
    await expect(field(customs, "Signed by")).toHaveValue(OWNER.name);
    const item = await fillItem(page);
    await field(item, "Description").fill("Cotton T-shirt");
    // The first item starts from the parcel: its weight now, the rates' currency once rates are shown.
    await expect(field(item, "Unit weight")).toHaveValue("2.5");
    await chooseInternationalRate(page);
    await expect(field(item, "Currency")).toHaveValue("USD");
    await field(customs, "Incoterm").selectOption("DDP");
    await expect(field(customs, "Duties paid by")).toHaveValue("sender");
    await customs.getByRole("checkbox", { name: "I certify the declaration is true" }).check();
    await checkPage(page, "shipments-new-customs");

    await page.getByRole("button", { name: /^Buy label/ }).click();
    await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { name: /Shipment to Chloé Client/ })).toBeVisible();
    const card = page.locator("[data-slot=card]", { has: page.getByRole("heading", { name: "Customs" }) });
    await expect(card.getByText("DDP (delivered duty paid)")).toBeVisible();
    await expect(card.getByRole("row", { name: /Cotton T-shirt/ })).toContainText("610910");
    await expect(card.getByRole("row", { name: /Cotton T-shirt/ })).toContainText("SKU TS-BLK-M");
    // The sandbox's commercial invoice, to print and attach beside the label.
    const documents = page.locator("[data-slot=card]", { has: page.getByRole("heading", { name: "Documents" }) });
    const download = page.waitForEvent("download");
    await documents.getByRole("link", { name: "Download Commercial invoice" }).click();
    expect((await download).suggestedFilename()).toMatch(/^SBX\d{21}-commercial-invoice\.pdf$/);
    await checkPage(page, "shipment-detail-customs");

    const list = await (await api.get(`/v1/shipments?reference=${reference}`)).json();
    expect(list.count).toBe(1);
    expect(list.results[0]).toMatchObject({
      status: "purchased",
      customs: {
        incoterm: "DDP",
        certify: true,
        signer: OWNER.name,
        duty: { paid_by: "sender", currency: "USD" },
        commodities: [
          {
            description: "Cotton T-shirt",
            quantity: 1,
            value_amount: 12.5,
            value_currency: "USD",
            weight: 2.5,
            weight_unit: "LB",
            hs_code: "610910",
            origin_country: "US",
            sku: "TS-BLK-M",
          },
        ],
      },
    });
  });

  test("puts a missing item field's error beside it and buys nothing", async ({ page, api, checkPage }) => {
    const reference = `CUSTOMS-MISSING-${Date.now()}`;
    await fillToCanada(page, reference);
    const item = await fillItem(page);
    await chooseInternationalRate(page);
    await page.getByRole("button", { name: /^Buy label/ }).click();

    const description = field(item, "Description");
    await expect(description).toHaveAttribute("aria-invalid", "true");
    await expect(description).toBeFocused();
    await expect(description).toHaveAccessibleDescription("Description must not be empty.");
    await checkPage(page, "shipments-new-customs-error");
    await expect(page).toHaveURL(/\/shipments\/new$/);
    const list = await (await api.get(`/v1/shipments?reference=${reference}`)).json();
    expect(list.count).toBe(0);

    // Typed, the error goes.
    await description.fill("Cotton T-shirt");
    await expect(description).not.toHaveAttribute("aria-invalid", "true");
  });

  test("hides the section for a parcel that stays home, and adds and removes items", async ({ page }) => {
    await fillToCanada(page, `CUSTOMS-ROWS-${Date.now()}`);
    const customs = page.getByRole("group", { name: "Customs" });
    // The only item of goods cannot go; a second can.
    await expect(customs.getByRole("button", { name: /^Remove item/ })).toHaveCount(0);
    await customs.getByRole("button", { name: "Add item" }).click();
    await expect(field(page.getByRole("group", { name: "Item 2" }), "Description")).toBeFocused();
    await customs.getByRole("button", { name: "Remove item 2" }).click();
    await expect(page.getByRole("group", { name: "Item 2" })).toHaveCount(0);
    await expect(customs.getByRole("button", { name: "Add item" })).toBeFocused();

    await page
      .getByRole("group", { name: "Ship to" })
      .getByLabel(/^Country/)
      .selectOption("US");
    await expect(customs).toHaveCount(0);
  });
});
