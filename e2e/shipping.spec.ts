import { readFile } from "node:fs/promises";
import { pdfLines } from "@/test/pdf-text";
import { OWNER } from "./accounts";
import { expect, field, signIn, test } from "./fixtures";
import { fillLabel, TO } from "./label-form";

test.describe("the shipping flow", () => {
  test.beforeEach(async ({ page }) => signIn(page, OWNER));

  test("creates a label: rates, buy, preview and tracking number; finds it in the list; cancels it", async ({
    page,
    checkPage,
  }) => {
    const reference = `ORDER-${Date.now()}`;
    await fillLabel(page, reference);
    await checkPage(page, "shipments-new");
    await page.getByRole("button", { name: "Get rates" }).click();
    const rates = page.getByRole("radio", { name: /Sandbox/ });
    await expect(rates.first()).toBeVisible();
    await expect(page.getByText("Cheapest").first()).toBeVisible();
    await rates.first().click();
    await checkPage(page, "shipments-new-rates");
    await page.getByRole("button", { name: /^Buy label/ }).click();

    await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { name: /Shipment to Rita Recipient/ })).toBeVisible();
    const tracking = (await page.locator("dd .font-mono").first().innerText()).trim();
    expect(tracking).toMatch(/^SBX/);
    await expect(page.getByTitle(`Shipping label ${tracking}`)).toBeVisible();
    await checkPage(page, "shipment-detail");

    // Cancelled (the label voided at the carrier) with a dialog that names the act. Straight away: the sandbox's
    // parcel is picked up half a minute after purchase (pace 360), and a picked-up label cannot be voided.
    await page.getByRole("button", { name: "Void label" }).click();
    await page.getByRole("button", { name: `Void label ${tracking}` }).click();
    await expect(page.getByText("(label voided)")).toBeVisible();

    // Found by its reference in the list, the search held in the URL.
    await page.goto("/shipments");
    await field(page, "Search").fill(reference);
    await field(page, "Search").press("Enter");
    await expect(page).toHaveURL(new RegExp(`q=${reference}`));
    await expect(page.getByRole("row", { name: new RegExp(reference) })).toHaveCount(1);
    await checkPage(page, "shipments-list");

    // And under the Cancelled tab; back returns to the list as it was.
    await page.getByRole("link", { name: /^Cancelled/ }).click();
    await expect(page).toHaveURL(/status=cancelled/);
    await expect(page.getByRole("row", { name: new RegExp(reference) })).toHaveCount(1);
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`q=${reference}$`));
  });

  test("prints a 60-character street and a 30-character reference whole on the label and the sheet", async ({
    page,
  }) => {
    const street = "1234 Exceptionally Long Boulevard Northwest, Building C Unit";
    const reference = `R${Date.now()}`.padEnd(30, "-ABCDEFGHIJKLMNOPQRSTUVWXYZ").slice(0, 30);
    expect([street.length, reference.length]).toEqual([60, 30]);
    await fillLabel(page, "X".repeat(40), { ...TO, street });
    await page.getByRole("button", { name: "Get rates" }).click();
    await page
      .getByRole("radio", { name: /Sandbox/ })
      .first()
      .click();
    // Before buying: the chosen carrier keeps 35 characters of a reference, and the form says so at the field.
    await expect(
      page.getByText("The sandbox label prints the first 35 characters of the reference; this one has 40."),
    ).toBeVisible();
    await field(page, "Reference").fill(reference);
    await expect(page.getByText(/prints the first 35 characters/)).toHaveCount(0);
    await page.getByRole("button", { name: /^Buy label/ }).click();
    await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });

    for (const [item, name] of [
      [/^Label as bought/, "label"],
      ["Letter sheet (PDF)", "letter sheet"],
    ] as const) {
      await page.getByRole("button", { name: "Download" }).click();
      const download = page.waitForEvent("download");
      await page.getByRole("menuitem", { name: item }).click();
      const bytes = new Uint8Array(await readFile(await (await download).path()));
      const lines = await pdfLines(bytes);
      expect(lines, name).toContain(street);
      expect(lines, name).toContain(reference);
    }
  });

  test("puts the API's field error on the field that caused it, and buys nothing", async ({ page, api }) => {
    const reference = `BADZIP-${Date.now()}`;
    await fillLabel(page, reference, { ...TO, postal: "ABCDE" });
    await page.getByRole("button", { name: "Get rates" }).click();
    const zip = page.getByRole("group", { name: "Ship to" }).getByLabel(/^ZIP code/);
    await expect(zip).toHaveAttribute("aria-invalid", "true");
    const describedBy = (await zip.getAttribute("aria-describedby")) ?? "";
    const errorText = await page.locator(`[id="${describedBy.split(" ")[0]}"]`).innerText();
    expect(errorText.length).toBeGreaterThan(0);
    const list = await (await api.get(`/v1/shipments?reference=${reference}`)).json();
    expect(list.count).toBe(0);
  });

  test("buys one label when Buy is clicked twice", async ({ page, api }) => {
    const reference = `DOUBLE-${Date.now()}`;
    await fillLabel(page, reference);
    await page.getByRole("button", { name: "Get rates" }).click();
    await page
      .getByRole("radio", { name: /Sandbox/ })
      .first()
      .click();
    await page.getByRole("button", { name: /^Buy label/ }).dblclick();
    await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
    const list = await (await api.get(`/v1/shipments?reference=${reference}`)).json();
    expect(list.count).toBe(1);
    expect(list.results[0].tracking_number).toMatch(/^SBX/);
  });
});
