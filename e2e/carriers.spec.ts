import { expect, signUp, test } from "./fixtures";
import { fillLabel } from "./label-form";

// UPS and FedEx answer from the carrier emulator the config starts beside the server (CARRIER_EMULATOR_URL).
const CONNECTIONS = [
  {
    carrier_name: "ups",
    carrier_id: "ups-e2e",
    credentials: { client_id: "e2e-client", client_secret: "e2e-ups-secret", account_number: "A1B2C3" },
  },
  {
    carrier_name: "fedex",
    carrier_id: "fedex-e2e",
    credentials: { api_key: "e2e-key", secret_key: "e2e-fedex-secret", account_number: "740561073" },
  },
];

test("a new organization connects UPS and FedEx, compares their rates with the sandbox's and buys a FedEx label", async ({
  page,
  checkPage,
  baseURL,
}) => {
  await signUp(page, {
    name: "Carla Carrier",
    email: `carla-${Date.now()}@example.com`,
    password: "a long enough password",
  });
  for (const body of CONNECTIONS) {
    // The dashboard's own session, as its connection settings will send it: the cookie and this site's Origin.
    const res = await page.request.post("/v1/connections", { data: body, headers: { Origin: baseURL! } });
    expect(res.status()).toBe(201);
    expect(await res.text()).not.toContain("secret");
  }

  await fillLabel(page, `MULTI-${Date.now()}`);
  await page.getByRole("button", { name: "Get rates" }).click();
  for (const carrier of [/^UPS/, /^FedEx/, /^Sandbox/]) {
    await expect(page.getByRole("radio", { name: carrier }).first()).toBeVisible({ timeout: 15_000 });
  }
  await page
    .getByRole("radio", { name: /^FedEx/ })
    .first()
    .click();

  // FedEx's ship schema requires a phone number: the adapter refuses before calling FedEx, and nothing is bought.
  await page.getByRole("button", { name: /^Buy label/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was bought" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/FedEx needs a phone number for the shipper/).first()).toBeVisible();
  await page
    .getByRole("group", { name: "Ship from" })
    .getByLabel(/^Phone/)
    .fill("+1 312 555 0100");
  await page
    .getByRole("group", { name: "Ship to" })
    .getByLabel(/^Phone/)
    .fill("+1 512 555 0123");
  await page.getByRole("button", { name: "Get rates" }).click();
  for (const carrier of [/^UPS/, /^FedEx/, /^Sandbox/]) {
    await expect(page.getByRole("radio", { name: carrier }).first()).toBeVisible({ timeout: 15_000 });
  }
  await page
    .getByRole("radio", { name: /^FedEx/ })
    .first()
    .click();
  await checkPage(page, "shipments-new-carriers");
  await page.getByRole("button", { name: /^Buy label/ }).click();

  await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
  const tracking = (await page.locator("dd .font-mono").first().innerText()).trim();
  expect(tracking).toMatch(/^\d{12}$/);
  await expect(page.getByText(/^fedex · FedEx /)).toBeVisible();
  await checkPage(page, "shipment-detail-fedex");
});
