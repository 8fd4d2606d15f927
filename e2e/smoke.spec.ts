import { expect, test } from "./fixtures";

test.describe("the running app", () => {
  test("sends a signed-out visit to sign-in, which links the API document from nowhere but serves it", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);
    const doc = await (await request.get("/v1/openapi.json")).json();
    expect(doc.openapi).toBe("3.1.0");
  });

  test("answers the API from the same server with the bootstrap key", async ({ api }) => {
    const res = await api.get("/v1/connections");
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.results[0]).toMatchObject({ carrier_name: "sandbox", active: true });
  });
});
