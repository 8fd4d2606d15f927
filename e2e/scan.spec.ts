import type { APIRequestContext } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, hydrated, signIn, test } from "./fixtures";
import { RECIPIENT, shipmentThroughApi } from "./api-shipments";

const RECEIVER = { ...RECIPIENT, person_name: "Scan Receiver", address_line1: "12 Elm Street" };

/** A shipment with `reference` on the sandbox; bought with a label of `label_type` unless `buy` is false. */
const shipment = (api: APIRequestContext, reference: string, buy = true, label_type = "PDF") =>
  shipmentThroughApi(api, { recipient: RECEIVER, reference, label_type }, { buy });

test.describe("scan to print", () => {
  test.beforeEach(async ({ page }) => signIn(page, OWNER));

  test("a scanned reference or tracking number prints its label; unknown and unbought codes say so; keyboard only", async ({
    page,
    api,
    checkPage,
  }) => {
    const stamp = Date.now();
    // PNG: headless Chromium's PDF viewer crashes the page when asked to print; a PNG prints from a plain frame.
    const pdf = await shipment(api, `SCAN-${stamp}`, true, "PNG");
    const zpl = await shipment(api, `SCANZ-${stamp}`, true, "ZPL");
    await shipment(api, `DRAFT-${stamp}`, false);

    await page.goto("/scan");
    await expect(page.getByRole("heading", { level: 1, name: "Scan to print" })).toBeVisible();
    const box = page.getByLabel("Scan or type a code");
    await expect(box).toBeFocused();
    const status = page.getByRole("status");

    // A scanner types the code and Enter: the label is fetched and handed to the print frame.
    const label = page.waitForResponse((r) => r.url().endsWith(`/v1/shipments/${pdf.id}/label`) && r.ok());
    await page.keyboard.type(`SCAN-${stamp}`);
    await page.keyboard.press("Enter");
    await label;
    await expect(status).toContainText("Label sent to print");
    await expect(page.locator('iframe[title="Label being printed"]')).toHaveCount(1);
    // The print frame took focus to print; the box has it back for the next scan.
    await expect(box).toBeFocused();
    await expect(box).toHaveValue("");

    // The tracking number as a person might type it: lower case, in groups.
    const number = pdf.tracking_number.toLowerCase().replace(/(.{4})/g, "$1 ");
    const again = page.waitForResponse((r) => r.url().endsWith(`/v1/shipments/${pdf.id}/label`));
    await page.keyboard.type(number);
    await page.keyboard.press("Enter");
    await again.catch(() => undefined); // a repeat may be served from the fetched file
    await expect(page.getByRole("listitem").filter({ hasText: number.trim() })).toContainText("Label sent to print");

    // A ZPL label cannot be printed by the browser: it is saved for the thermal printer.
    const download = page.waitForEvent("download");
    await page.keyboard.type(`SCANZ-${stamp}`);
    await page.keyboard.press("Enter");
    expect((await download).suggestedFilename()).toMatch(/\.zpl$/i);
    await expect(status).toContainText("ZPL label saved");
    expect(zpl.tracking_number).toBeTruthy();

    await page.keyboard.type(`DRAFT-${stamp}`);
    await page.keyboard.press("Enter");
    await expect(status).toContainText("No label bought yet");

    await page.keyboard.type(`NOPE-${stamp}`);
    await page.keyboard.press("Enter");
    await expect(status).toContainText("No shipment has this code.");
    await expect(box).toBeFocused();

    await expect(page.getByRole("listitem").filter({ hasText: `NOPE-${stamp}` })).toHaveCount(1);
    await checkPage(page, "scan");
  });

  test("a person's paper, chosen beside Print, is kept and followed by Print and the scan box", async ({
    page,
    api,
    checkPage,
  }) => {
    const bought = await shipment(api, `PAPER-${Date.now()}`, true, "PNG");
    await page.goto(`/shipments/${bought.id}`);
    const paper = page.getByRole("button", { name: "Paper to print on" });
    await expect.poll(() => hydrated(paper), { timeout: 30_000 }).toBe(true);
    await expect(page.getByRole("button", { name: "Print label" })).toBeVisible();
    await paper.click();
    await expect(page.getByRole("menuitemradio", { name: "4×6 label printer" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await page.getByRole("menuitemradio", { name: "Letter paper" }).click();
    await expect(page.getByRole("button", { name: "Print on Letter" })).toBeVisible();
    await checkPage(page, "shipment-print-paper");

    // Kept in this browser for this person: after a reload, and on the scan page.
    await page.reload();
    await expect(page.getByRole("button", { name: "Print on Letter" })).toBeVisible();
    await page.goto("/scan");
    await expect(page.getByText(/Labels print on Letter paper/)).toBeVisible();
  });
  test("a reference that several shipments share lists them, and one prints from the list with the keyboard", async ({
    page,
    api,
  }) => {
    const reference = `TWICE-${Date.now()}`;
    const first = await shipment(api, reference, true, "PNG");
    const second = await shipment(api, reference, true, "PNG");
    await page.goto("/scan");
    const box = page.getByLabel("Scan or type a code");
    await expect(box).toBeFocused();
    await page.keyboard.type(reference);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toContainText("2 shipments have this reference: choose one.");
    // Nothing was printed for an ambiguous code: no print frame, and the box is ready for the next scan.
    await expect(page.locator('iframe[title="Label being printed"]')).toHaveCount(0);
    await expect(box).toBeFocused();

    const choices = page.getByRole("listitem").filter({ hasText: reference }).getByRole("listitem");
    await expect(choices).toHaveCount(2);
    const row = choices.filter({ hasText: second.tracking_number });
    await expect(row.getByRole("link")).toHaveAttribute("href", `/shipments/${second.id}`);
    await expect(choices.filter({ hasText: first.tracking_number })).toHaveCount(1);
    const label = page.waitForResponse((r) => r.url().endsWith(`/v1/shipments/${second.id}/label`) && r.ok());
    await row.getByRole("button", { name: "Print this one" }).focus();
    await page.keyboard.press("Enter");
    await label;
    await expect(page.getByRole("status")).toContainText("Label sent to print");
    await expect(page.locator('iframe[title="Label being printed"]')).toHaveCount(1);
    await expect(box).toBeFocused();
  });
});
