import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, hydrated, signIn, slowLine, test } from "./fixtures";
import { RECIPIENT, shipmentThroughApi } from "./api-shipments";

/**
 * A clerk's batch day: a shop's CSV export (its own column names, one row with a postal code the check refuses)
 * uploaded, its columns mapped, the dry run read, the total confirmed, the labels downloaded; and two drafts from
 * the shipments list bought as a batch. The sandbox carrier prices and sells every good row.
 */
const CSV = [
  "Order,Customer,Street,Town,State,Zip,country_code,Weight (kg)",
  "B-{stamp}-1,Ada Lovelace,12 Elm St,Austin,TX,78701,US,1.2",
  "B-{stamp}-2,Alan Turing,40 Oak Ave,Denver,CO,80202,US,0.8",
  "B-{stamp}-3,Grace Hopper,7 Pine Rd,Boston,MA,ABCDE,US,2",
].join("\n");

/** The columns a clerk picks for this file: field label in the mapping step → the file's header. */
const COLUMNS: [group: string, label: string, header: string][] = [
  ["Order", "Order number", "Order"],
  ["Ship to", "Name", "Customer"],
  ["Ship to", "Street", "Street"],
  ["Ship to", "City", "Town"],
  ["Ship to", "State or province", "State"],
  ["Ship to", "Postal code", "Zip"],
  ["Ship to", "Country", "country_code"],
  ["Parcel", "Weight", "Weight (kg)"],
];

async function chooseCsv(page: Page, text: string) {
  await page.getByLabel("File").setInputFiles({ name: "orders.csv", mimeType: "text/csv", buffer: Buffer.from(text) });
  await expect(page.getByText("orders.csv: 8 columns")).toBeVisible();
}

const mapping = (page: Page, group: string, label: string) =>
  page.getByRole("group", { name: group, exact: true }).getByLabel(label, { exact: true });

/** A draft (priced, not bought) through the API, as an integration or the create form's "save" would leave it. */
const draft = (api: APIRequestContext, reference: string) =>
  shipmentThroughApi(
    api,
    // Rated by every connection, as the create form does by default.
    { recipient: { ...RECIPIENT, person_name: `Rita ${reference}` }, carrier_ids: undefined, reference },
    { buy: false },
  );

/** A shipment bought through the API: a label to print. */
const bought = (api: APIRequestContext, reference: string) =>
  shipmentThroughApi(api, {
    recipient: { ...RECIPIENT, person_name: `Rita ${reference}` },
    carrier_ids: undefined,
    reference,
  });

/** The ship-from of the new-batch form, filled. */
async function fillShipFrom(page: Page) {
  const from = page.getByRole("group", { name: /Ship from/ });
  await from.getByLabel(/^Street address/).fill("500 Industrial Way");
  await from.getByLabel(/^City/).fill("Chicago");
  await from.getByLabel(/^State/).selectOption("IL");
  await from.getByLabel(/^ZIP code/).fill("60607");
}

/** The new-batch form with the CSV chosen, its columns mapped and the ship-from filled: its rates section. */
async function newBatchFilled(page: Page, stamp: string) {
  await page.goto("/batches/new");
  await chooseCsv(page, CSV.replaceAll("{stamp}", stamp));
  for (const [group, label, header] of COLUMNS) await mapping(page, group, label).selectOption(header);
  await fillShipFrom(page);
  return page.getByRole("group", { name: "4. Rates and labels" });
}

test.describe("batches", () => {
  test.beforeEach(async ({ page }) => signIn(page, OWNER));

  test("a CSV with one bad row: mapped, checked, its error shown inline, confirmed, bought live, downloaded", async ({
    page,
    checkPage,
  }) => {
    const stamp = Date.now().toString();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Batches" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Batches" })).toBeVisible();
    await page.getByRole("link", { name: "Upload CSV" }).first().click();
    // The route's first visit on this server: on a busy machine its page arrives after the default 5 s.
    await expect(page.getByRole("heading", { level: 1, name: "New batch" })).toBeVisible({ timeout: 15_000 });

    await chooseCsv(page, CSV.replaceAll("{stamp}", stamp));
    // Named like the field: chosen already. The shop's own names: mapped by the clerk.
    await expect(mapping(page, "Ship to", "Country")).toHaveValue("country_code");
    await expect(mapping(page, "Ship to", "Street")).toHaveValue("");
    for (const [group, label, header] of COLUMNS) await mapping(page, group, label).selectOption(header);
    const from = page.getByRole("group", { name: /Ship from/ });
    await from.getByLabel(/^Street address/).fill("500 Industrial Way");
    await from.getByLabel(/^City/).fill("Chicago");
    await from.getByLabel(/^State/).selectOption("IL");
    await from.getByLabel(/^ZIP code/).fill("60607");
    await checkPage(page, "batch-new");
    await page.getByRole("button", { name: "Check rows" }).click();

    // The dry run: two rows priced, the bad one named by line, column and reason in its own row.
    await expect(page).toHaveURL(/\/batches\/bat_[0-9a-f]{32}$/, { timeout: 30_000 });
    const buy = page.getByRole("button", { name: /^Buy 2 labels for \$\d+\.\d\d$/ });
    await expect(buy).toBeVisible({ timeout: 60_000 });
    const bad = page.locator('tr[data-line="4"]');
    await expect(bad).toContainText("Line 4, column “Zip”");
    await expect(bad).toContainText("Failed");
    await checkPage(page, "batch-dry-run");

    // Confirmed: the counts move without a reload (a mark set on the page survives), then the files.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await buy.click();
    await expect(page.getByText("Done: 2 labels bought, 1 row failed.")).toBeVisible({ timeout: 90_000 });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await expect(page.locator('[data-count="purchased"] dd')).toHaveText("2");
    await expect(page.getByRole("button", { name: "Retry failed rows" })).toBeVisible();
    await checkPage(page, "batch-completed");

    const pdf = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download" }).click();
    await page.getByRole("menuitem", { name: "Labels PDF (4×6)" }).click();
    const pdfFile = await pdf;
    expect(pdfFile.suggestedFilename()).toMatch(/\.pdf$/);
    expect((await readFile((await pdfFile.path())!)).subarray(0, 5).toString()).toBe("%PDF-");

    const failed = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export failed rows as CSV" }).click();
    const failedText = (await readFile((await (await failed).path())!)).toString();
    expect(failedText).toContain("ABCDE");
    expect(failedText).not.toContain("Ada Lovelace");

    // The list has it; the next file starts from the columns saved this time.
    await page.goto("/batches");
    await expect(page.getByRole("link", { name: "orders.csv" }).first()).toBeVisible();
    await checkPage(page, "batches-list");
    await page.goto("/batches/new");
    await chooseCsv(page, CSV.replaceAll("{stamp}", `${stamp}-again`));
    for (const [group, label, header] of COLUMNS) await expect(mapping(page, group, label)).toHaveValue(header);
  });

  test("two drafts selected in the shipments list are bought as a batch", async ({ page, api, checkPage }) => {
    const stamp = `SEL-${Date.now()}`;
    await draft(api, `${stamp}-1`);
    await draft(api, `${stamp}-2`);
    await page.goto(`/shipments?q=${stamp}`);
    await expect(page.getByRole("row", { name: new RegExp(stamp) })).toHaveCount(2);
    await page.getByRole("checkbox", { name: `Select Rita ${stamp}-1` }).click();
    await page.getByRole("checkbox", { name: `Select Rita ${stamp}-2` }).click();
    await expect(page.getByText("2 selected")).toBeVisible();
    await checkPage(page, "shipments-selected");
    await page.getByRole("button", { name: "Buy labels" }).click();

    await expect(page).toHaveURL(/\/batches\/bat_[0-9a-f]{32}$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1, name: "2 selected shipments" })).toBeVisible();
    await page.getByRole("button", { name: /^Buy 2 labels for / }).click({ timeout: 60_000 });
    await expect(page.getByText("Done: 2 labels bought.")).toBeVisible({ timeout: 90_000 });
    // Each bought row links to its shipment.
    await expect(page.getByRole("link", { name: /^View shipment of row [12]$/ })).toHaveCount(2);
    await checkPage(page, "batch-from-shipments");
  });

  test("a fixed service with a price cap: rows above it wait, are approved one and all, and the batch then ends", async ({
    page,
    checkPage,
  }) => {
    const rates = await newBatchFilled(page, `CAP-${Date.now()}`);
    await expect(rates.getByLabel("Carrier and service")).toHaveCount(0);
    await rates.getByLabel("Rate", { exact: true }).selectOption("fixed");
    // Asked for before anything is sent: a fixed policy names its service.
    await page.getByRole("button", { name: "Check rows" }).click();
    await expect(rates.getByText(/choose the carrier and service/i)).toBeVisible();
    await rates.getByLabel(/^Carrier and service/).selectOption({ label: "Sandbox: Sandbox Overnight" });
    await rates.getByLabel(/^Price cap/).fill("1");
    await checkPage(page, "batch-new-fixed-cap");
    await page.getByRole("button", { name: "Check rows" }).click();

    // Both good rows are above the cap: they wait, each with its price and its own Approve and Skip.
    await expect(page).toHaveURL(/\/batches\/bat_[0-9a-f]{32}$/, { timeout: 30_000 });
    const waiting = page.getByRole("heading", { name: "Waiting for your decision" });
    await expect(waiting).toBeVisible({ timeout: 60_000 });
    const line2 = page.locator('tr[data-line="2"]');
    await expect(line2).toContainText("SBX_OVERNIGHT");
    await expect(line2).toContainText(/\$\d+\.\d\d/);
    await expect(page.getByRole("button", { name: "Approve line 3" })).toBeVisible();
    await checkPage(page, "batch-waiting");

    await page.getByRole("button", { name: "Approve line 2" }).click();
    await expect(page.getByText("Line 2 approved.")).toBeVisible();
    // Bought with the batch; line 3 still waits, so the batch waits for it after buying line 2.
    await page.getByRole("button", { name: /^Buy 1 label for \$/ }).click();
    await expect(page.getByText(/^Waiting for your decision on 1 row above the price cap: 1 label bought/)).toBeVisible(
      {
        timeout: 90_000,
      },
    );
    await page.getByRole("button", { name: "Approve all (1)" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Approve 1 row above the price cap?" });
    await dialog.getByRole("button", { name: "Approve all" }).click();
    await expect(page.getByText("Done: 2 labels bought, 1 row failed.")).toBeVisible({ timeout: 90_000 });
    await expect(waiting).toHaveCount(0);
    await checkPage(page, "batch-decided");
  });

  test("a file chosen before the page's scripts have run is read once they have", async ({ page }) => {
    // A poor line, as in e2e/drafts.spec.ts: the server's HTML (the file input) arrives long before the scripts.
    const line = await slowLine(page);
    await page.goto("/batches/new", { waitUntil: "commit" });
    const file = page.getByLabel("File");
    await expect(file).toBeAttached({ timeout: 90_000 });
    expect(await hydrated(file), "the form must still be server HTML when the file is chosen").toBe(false);
    await file.setInputFiles({ name: "orders.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
    expect(await hydrated(file), "the file was chosen before hydration").toBe(false);
    await line.fast();
    await expect(page.getByText("orders.csv: 8 columns")).toBeVisible({ timeout: 90_000 });
    await expect(mapping(page, "Ship to", "Street")).toBeVisible();
  });

  test("rules by weight: heavy rows go overnight, the rest take the fallback; the rule's problems show first", async ({
    page,
    checkPage,
  }) => {
    const rates = await newBatchFilled(page, `RULES-${Date.now()}`);
    await rates.getByLabel("Rate", { exact: true }).selectOption("rules");
    // Rules start with one to fill in; a rule with no condition is refused before anything is sent.
    const rule1 = rates.getByRole("group", { name: "Rule 1" });
    await expect(rule1).toBeVisible();
    await page.getByRole("button", { name: "Check rows" }).click();
    await expect(rule1.getByText(/^Give this rule a weight, a destination or a value/)).toBeVisible();
    await expect(page).toHaveURL(/\/batches\/new$/);

    // A second rule, moved above the first and removed again: the focus stays on what the clerk works with.
    await rates.getByRole("button", { name: "Add rule" }).click();
    const rule2 = rates.getByRole("group", { name: "Rule 2" });
    await rule2.getByLabel("Country").selectOption("CA");
    await rule2.getByRole("button", { name: "Move rule 2 up" }).click();
    await expect(rates.getByRole("group", { name: "Rule 1" }).getByLabel("Country")).toHaveValue("CA");
    await expect(page.getByRole("button", { name: "Move rule 1 up" })).toBeFocused();
    // Moved down again with the keyboard: the button pressed keeps the focus in the rule's new place (each rule is
    // keyed by its own id, so its fieldset, and the focused button in it, travels rather than being made anew).
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Move rule 1 down" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(rates.getByRole("group", { name: "Rule 2" }).getByLabel("Country")).toHaveValue("CA");
    await expect(page.getByRole("button", { name: "Move rule 2 down" })).toBeFocused();
    await rates.getByRole("button", { name: "Move rule 2 up" }).click();
    await rates.getByRole("button", { name: "Remove rule 1" }).click();
    await expect(rates.getByRole("button", { name: "Add rule" })).toBeFocused();
    await expect(rates.getByRole("group", { name: "Rule 2" })).toHaveCount(0);

    await rule1.getByLabel("Weight from").fill("1");
    await rule1.getByLabel("Weight to").fill("0.5");
    await page.getByRole("button", { name: "Check rows" }).click();
    await expect(rule1.getByText("Weight to must not be below the lower bound.")).toBeVisible();
    await rule1.getByLabel("Weight to").fill("");
    await rule1.getByLabel("Then").selectOption({ label: "Sandbox: Sandbox Overnight" });
    await rates.getByLabel("Rows no rule matches").selectOption("cheapest");
    await checkPage(page, "batch-new-rules");
    await page.getByRole("button", { name: "Check rows" }).click();

    // 1.2 kg matches the rule (overnight); 0.8 kg matches none and takes the cheapest (ground).
    await expect(page).toHaveURL(/\/batches\/bat_[0-9a-f]{32}$/, { timeout: 30_000 });
    await expect(page.getByRole("button", { name: /^Buy 2 labels for \$/ })).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('tr[data-line="2"]')).toContainText("SBX_OVERNIGHT");
    await expect(page.locator('tr[data-line="3"]')).toContainText("SBX_GROUND");
  });

  test("bought shipments selected in the list become one print run, in the order selected", async ({
    page,
    api,
    checkPage,
  }) => {
    const stamp = `PRN-${Date.now()}`;
    await bought(api, `${stamp}-1`);
    await bought(api, `${stamp}-2`);
    await draft(api, `${stamp}-3`);
    await page.goto(`/shipments?q=${stamp}`);
    await expect(page.getByRole("row", { name: new RegExp(stamp) })).toHaveCount(3);
    await page.getByRole("checkbox", { name: `Select Rita ${stamp}-2` }).click();
    await page.getByRole("checkbox", { name: `Select Rita ${stamp}-1` }).click();
    await page.getByRole("checkbox", { name: `Select Rita ${stamp}-3` }).click();
    // The draft is bought, the two with labels printed: each button counts its own.
    await expect(page.getByRole("button", { name: "Print labels (2)" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Buy label (1)" })).toBeVisible();
    await checkPage(page, "shipments-selected-print");
    await page.getByRole("button", { name: "Print labels (2)" }).click();

    await expect(page).toHaveURL(/\/batches\/bat_[0-9a-f]{32}$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Print run: 2 labels" })).toBeVisible();
    await expect(page.getByText("Ready to print: 2 labels, nothing bought.")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Buy / })).toHaveCount(0);
    const rows = page.locator("tbody tr");
    await expect(rows.nth(0)).toContainText(`${stamp}-2`);
    await expect(rows.nth(1)).toContainText(`${stamp}-1`);
    await checkPage(page, "batch-print-run");
    const pdf = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download" }).click();
    await page.getByRole("menuitem", { name: "Labels PDF (4×6)" }).click();
    const pdfFile = await pdf;
    expect((await readFile((await pdfFile.path())!)).subarray(0, 5).toString()).toBe("%PDF-");
  });

  test.describe("at 390 px wide", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the batch pages fit the screen", async ({ page, api, checkPage }) => {
      const fits = async (name: string) => {
        await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${page.url()} is wider than the screen by ${overflow} px`).toBeLessThanOrEqual(0);
        await checkPage(page, name);
      };
      // A checked batch with a long file name and a failed row, made through the API.
      const created = await api.post("/v1/batches", {
        data: {
          csv: CSV.replaceAll("{stamp}", `M${Date.now()}`),
          filename: "spring-sale-orders-export-from-the-shop-2026-11-27.csv",
          mapping: Object.fromEntries([
            ["reference", "Order"],
            ["recipient.person_name", "Customer"],
            ["recipient.address_line1", "Street"],
            ["recipient.city", "Town"],
            ["recipient.state_code", "State"],
            ["recipient.postal_code", "Zip"],
            ["parcel.weight", "Weight (kg)"],
          ]),
          shipper: {
            address_line1: "500 Industrial Way",
            city: "Chicago",
            state_code: "IL",
            postal_code: "60607",
            country_code: "US",
          },
        },
      });
      expect(created.status()).toBe(201);
      const { id } = await created.json();
      await page.goto(`/batches/${id}`);
      await expect(page.getByRole("button", { name: /^Buy 2 labels/ })).toBeVisible({ timeout: 60_000 });
      await fits("mobile-batch");
      await page.goto("/batches");
      await fits("mobile-batches");
      await page.goto("/batches/new");
      await chooseCsv(page, CSV.replaceAll("{stamp}", "M"));
      await fits("mobile-batch-new");
    });
  });
});
