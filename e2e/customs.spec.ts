import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, field, signIn, test } from "./fixtures";
import { SHIPPER, sandboxConnection, shipmentThroughApi } from "./api-shipments";

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

/** A US → CA label bought through the API on a sandbox connection of its own: the sandbox sells an invoice with it. */
async function buyToCanada(api: APIRequestContext, reference: string): Promise<string> {
  const carrierId = `e2e-${reference.toLowerCase()}`;
  await sandboxConnection(api, carrierId);
  const bought = await shipmentThroughApi(api, {
    shipper: { ...SHIPPER, person_name: "Olivia Owner", phone_number: "+1 312 555 0100" },
    recipient: {
      person_name: "Chloé Client",
      address_line1: "100 Queen St W",
      city: "Toronto",
      state_code: "ON",
      postal_code: "M5H 2N2",
      country_code: "CA",
      phone_number: "+1 416 555 0100",
    },
    customs: {
      content_type: "merchandise",
      incoterm: "DAP",
      commodities: [
        {
          description: "Cotton T-shirt",
          quantity: 1,
          value_amount: 12.5,
          value_currency: "USD",
          weight: 0.25,
          weight_unit: "KG",
          hs_code: "610910",
          origin_country: "US",
        },
      ],
    },
    carrier_ids: [carrierId],
    reference,
  });
  return bought.id;
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
    await documents.getByRole("button", { name: "Download Commercial invoice" }).click();
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

  test("a document downloads through the API client: the PDF itself, and after the session ended a dialog, no file", async ({
    page,
    context,
    api,
  }) => {
    const id = await buyToCanada(api, `CUSTOMS-DOC-${Date.now()}`);
    const downloads: string[] = [];
    page.on("download", (d) => downloads.push(d.suggestedFilename()));
    await page.goto(`/shipments/${id}`);
    // The label's preview has loaded: no request of the page's own is left to meet the ended session below.
    const preview = page.getByTitle(/^Shipping label /);
    await expect(preview).toBeVisible({ timeout: 30_000 });
    const documents = page.locator("[data-slot=card]", { has: page.getByRole("heading", { name: "Documents" }) });
    const button = documents.getByRole("button", { name: "Download Commercial invoice" });

    const saved = page.waitForEvent("download");
    await button.click();
    const file = await saved;
    expect(file.suggestedFilename()).toMatch(/^SBX\d{21}-commercial-invoice\.pdf$/);
    const bytes = await readFile((await file.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The same bytes the API serves for the document.
    const { documents: listed } = (await (await api.get(`/v1/shipments/${id}`)).json()) as {
      documents: { id: string }[];
    };
    const served = await api.get(`/v1/shipments/${id}/documents/${listed[0]!.id}`);
    expect(Buffer.compare(bytes, await served.body())).toBe(0);

    // A fresh page (the fetched file is kept for the page's life), then the session ends: a plain link would save
    // the API's JSON error as the file.
    await page.reload();
    await expect(preview).toBeVisible({ timeout: 30_000 });
    await context.clearCookies();
    await button.click();
    await expect(page.getByRole("alertdialog", { name: "Your session ended: sign in again" })).toBeVisible();
    await expect(page.getByText(/Provide an API key/)).toHaveCount(0);
    expect(downloads).toHaveLength(1);
  });
});
