import { expect, test } from "./fixtures";

test.describe("the running app", () => {
  test("serves the home page, whose link opens the API document", async ({ page, checkPage }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Shipwell" })).toBeVisible();
    await checkPage(page, "home");
    await page.getByRole("link", { name: "/v1/openapi.json" }).click();
    await page.waitForURL(/openapi\.json$/);
    const doc = JSON.parse((await page.locator("body").innerText()).trim());
    expect(doc.openapi).toBe("3.1.0");
  });

  test("answers the API from the same server with the bootstrap key", async ({ api }) => {
    const res = await api.get("/v1/connections");
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.results[0]).toMatchObject({ carrier_name: "sandbox", active: true });
  });
});
