import { expect, signUp, test } from "./fixtures";
import { fillLabel } from "./label-form";

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
const dayWords = (day: string) =>
  new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" }).format(
    new Date(`${day}T00:00Z`),
  );

test("a new organization's overview says what to do; then it shows the spend of a label just bought", async ({
  page,
  checkPage,
}) => {
  await signUp(page, {
    name: "Owen Overview",
    email: `overview-${Date.now()}@e2e.test`,
    password: "a long enough password",
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByText("No labels yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await checkPage(page, "overview-empty");

  // A sandbox label bought through the dashboard.
  await fillLabel(page, `OVERVIEW-${Date.now()}`);
  await page.getByRole("button", { name: "Get rates" }).click();
  await page
    .getByRole("radio", { name: /Sandbox/ })
    .first()
    .click();
  await page.getByRole("button", { name: /^Buy label/ }).click();
  await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
  const id = new URL(page.url()).pathname.split("/").at(-1)!;
  const shipment = await (await page.request.get(`/v1/shipments/${id}`)).json();
  const { total_charge: charge, currency } = shipment.selected_rate as { total_charge: number; currency: string };
  const today = new Date().toISOString().slice(0, 10); // the overview counts days in UTC without ?tz=

  await page.goto("/");
  // Sandbox labels are test labels: with no live ones, the overview opens on them.
  await expect(page.getByRole("link", { name: /^Test labels/ })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: /^Test labels/ })).toContainText("1");
  const week = page.getByRole("region", { name: "This week" });
  await expect(week).toContainText(`Labels, last 7 days1`);
  await expect(week).toContainText(`Spend, last 7 days (${currency})${money(charge, currency)}`);
  await expect(page.locator("#daily-summary")).toContainText(`1 label for ${money(charge, currency)}`);
  await page.getByText("Show the numbers per day").click();
  await expect(page.getByRole("row", { name: dayWords(today) })).toHaveText(
    new RegExp(`${dayWords(today)}\\s*1\\s*${money(charge, currency).replace("$", "\\$")}`),
  );
  await expect(page.getByRole("table").filter({ hasText: "Carrier / service" })).toContainText(money(charge, currency));
  await checkPage(page, "overview");

  // Live labels: none, and the toggle is in the URL.
  await page.getByRole("link", { name: /^Live labels/ }).click();
  await expect(page).toHaveURL(/\?mode=live$/);
  await expect(page.locator("#daily-summary")).toHaveText("No labels bought in the last 30 days.");
});
