import type { APIRequestContext } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, field, signIn, test } from "./fixtures";
import { sandboxConnection, shipmentThroughApi } from "./api-shipments";

// What must never reach the public page: the recipient's name, company, street, email and phone, and the reference.
const SECRETS = {
  person_name: "Rosalind Quigglesworth",
  company_name: "Zebulon Widgets",
  address_line1: "742 Evergreen Terrace",
  address_line2: "Apt 9Q",
  email: "rosalind@quiggles.example",
  phone_number: "+1 512 555 0199",
};

/**
 * A label bought through the API on a fast sandbox connection: one simulated hour every 1.8 s, so its parcel is
 * picked up a few seconds after purchase and moves on for about a minute and a half.
 */
async function buyLabel(api: APIRequestContext, reference: string) {
  const carrierId = `e2e-${reference.toLowerCase()}`;
  await sandboxConnection(api, carrierId, { pace: 2_000 });
  return shipmentThroughApi(api, {
    recipient: { ...SECRETS, city: "Austin", state_code: "TX", postal_code: "78701", country_code: "US" },
    carrier_ids: [carrierId],
    reference,
  });
}

test.describe("trackers", () => {
  test.beforeEach(async ({ page }) => signIn(page, OWNER));

  test("a bought label's tracker: the timeline grows after Refresh now, a share link shows a public page without the recipient, delete ends it", async ({
    page,
    api,
    newContext,
    request,
    checkPage,
  }) => {
    const reference = `TRK-${Date.now()}`;
    const shipment = await buyLabel(api, reference);

    // Found in the list by the shipment's reference, under All.
    await page.goto(`/trackers?q=${reference}`);
    const row = page.getByRole("row", { name: new RegExp(shipment.tracking_number) });
    await expect(row).toHaveCount(1);
    // The row says whom the parcel is for and the clerk's reference, not only the carrier's number.
    await expect(row).toContainText("Rosalind Quigglesworth");
    await expect(row).toContainText(reference);
    await expect(page.getByRole("link", { name: /^All/ })).toHaveAttribute("aria-current", "page");
    await checkPage(page, "trackers");
    await row.getByRole("link", { name: shipment.tracking_number }).click();
    await expect(page).toHaveURL(new RegExp(`/trackers/${shipment.tracker_id}$`));
    await expect(page.getByRole("heading", { level: 1, name: shipment.tracking_number })).toBeVisible();

    // Refresh now asks the carrier and the page shows what it answered: more events as the parcel moves.
    const events = page.getByTestId("timeline-event");
    const before = await events.count();
    await expect(async () => {
      const answered = page.waitForResponse((r) => r.url().endsWith("/refresh") && r.request().method() === "POST");
      await page.getByRole("button", { name: "Refresh now" }).click();
      const tracker = await (await answered).json();
      expect(tracker.events.length).toBeGreaterThan(before);
      await expect(events).toHaveCount(tracker.events.length);
    }).toPass({ timeout: 45_000 });
    await expect(page.getByRole("link", { name: "View the shipment" })).toHaveAttribute(
      "href",
      `/shipments/${shipment.id}`,
    );
    await checkPage(page, "tracker-detail");

    // The share link is copied and shown; asking again (here or on the shipment) gives the same link.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy share link" }).click();
    const link = page.getByTestId("share-link");
    await expect(link).toHaveText(/\/track\/[0-9a-f]{32}$/);
    const url = (await link.innerText()).trim();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(url).not.toContain(shipment.tracker_id.slice(4));
    await page.goto(`/shipments/${shipment.id}`);
    await page.getByRole("button", { name: "Copy share link" }).click();
    await expect(page.getByTestId("share-link")).toHaveText(url);

    // Signed out (a new browser context, no cookie): the page, cacheable for a minute, with the security headers.
    const anonymous = await newContext();
    const visitor = await anonymous.newPage();
    const answer = await visitor.goto(url);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()["cache-control"]).toBe("public, max-age=60");
    expect(answer?.headers()["x-frame-options"]).toBe("DENY");
    await expect(visitor.getByRole("heading", { level: 1, name: shipment.tracking_number })).toBeVisible();
    await expect(visitor.getByRole("list", { name: "Progress" })).toBeVisible();
    await expect(visitor.getByTestId("timeline-event").first()).toBeVisible();
    await expect(visitor.getByRole("navigation")).toHaveCount(0);
    // The tracking number's digits could hold the postal code by chance: it is taken out before looking.
    const html = ((await answer!.text()) + (await visitor.content())).replaceAll(shipment.tracking_number, "");
    for (const secret of [...Object.values(SECRETS), "Quigglesworth", "Evergreen", "78701", reference, shipment.id]) {
      expect(html, `the public page shows "${secret}"`).not.toContain(secret);
    }
    await checkPage(visitor, "track-public");

    // An unknown link is a friendly 404 outside the dashboard.
    const missing = await visitor.goto(`/track/${"0".repeat(32)}`);
    expect(missing?.status()).toBe(404);
    await expect(visitor.getByText("We can't find this parcel")).toBeVisible();
    await expect(visitor.getByRole("navigation")).toHaveCount(0);
    await checkPage(visitor, "track-not-found");
    await anonymous.close();

    // Delete, confirmed by a dialog naming the number; the share link ends with it.
    await page.goto(`/trackers/${shipment.tracker_id}`);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: `Delete tracker ${shipment.tracking_number}` }).click();
    await expect(page).toHaveURL(/\/trackers$/);
    expect((await api.get(`/v1/trackers/${shipment.tracker_id}`)).status()).toBe(404);
    expect((await request.get(url)).status()).toBe(404);
  });

  test("Track a parcel adds a number and opens its tracker; tabs and the carrier filter narrow the list", async ({
    page,
    api,
  }) => {
    const shipment = await buyLabel(api, `TRK2-${Date.now()}`);
    // Its label's tracker is deleted, so the number is not tracked until the clerk adds it.
    expect((await api.delete(`/v1/trackers/${shipment.tracker_id}`)).status()).toBe(200);

    await page.goto("/trackers");
    await page.getByRole("button", { name: "Track a parcel" }).click();
    const dialog = page.getByRole("dialog", { name: "Track a parcel" });
    // The carrier is told from the number unless the clerk names one.
    await expect(field(dialog, "Carrier")).toHaveValue("auto");
    await field(dialog, "Tracking number").fill(shipment.tracking_number);
    await dialog.getByRole("button", { name: "Track" }).click();
    await expect(page).toHaveURL(/\/trackers\/trk_[0-9a-f]{32}$/);
    await expect(page.getByRole("heading", { level: 1, name: shipment.tracking_number })).toBeVisible();
    await expect(page.getByText("None: tracked by number")).toBeVisible();

    // An unknown number: the carrier's answer in the dialog, nothing opened.
    await page.goto("/trackers");
    await page.getByRole("button", { name: "Track a parcel" }).click();
    await field(dialog, "Carrier").selectOption("sandbox");
    await field(dialog, "Tracking number").fill("SBX000000000000000000001");
    await dialog.getByRole("button", { name: "Track" }).click();
    await expect(field(dialog, "Tracking number")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/trackers$/);

    // The tabs' and the filter's state lives in the URL.
    await page.keyboard.press("Escape");
    await page.getByRole("link", { name: /^Exceptions/ }).click();
    await expect(page).toHaveURL(/status=exceptions/);
    await expect(page.getByRole("row", { name: new RegExp(shipment.tracking_number) })).toHaveCount(0);
    await page.getByRole("link", { name: /^All/ }).click();
    await expect(page).toHaveURL(/\/trackers$/);
    await field(page, "Search").fill(shipment.tracking_number);
    await field(page, "Search").press("Enter");
    await expect(page).toHaveURL(new RegExp(`q=${shipment.tracking_number}`));
    await expect(page.getByRole("row", { name: new RegExp(shipment.tracking_number) })).toHaveCount(1);
  });
});
