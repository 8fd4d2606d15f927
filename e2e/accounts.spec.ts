import { MEMBER, OWNER } from "./accounts";
import { expect, field, hydrated, signIn, signUp, slowLine, test } from "./fixtures";

test.describe("accounts", () => {
  test("a signed-out visit goes to sign-in and comes back after", async ({ page, checkPage }) => {
    await page.goto("/settings/account");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings%2Faccount$/);
    await checkPage(page, "sign-in");
    await field(page, "Email").fill(OWNER.email);
    await field(page, "Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("The email or password is not right.")).toBeVisible();
    await field(page, "Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/settings\/account$/);
    await expect(page.getByText(`${OWNER.email} · owner of Default organization`)).toBeVisible();
    await checkPage(page, "settings-account");
  });

  test("a sign-in typed before the page's script runs is not sent by the browser, then works", async ({ page }) => {
    // Every request the page makes: none may carry the password (a browser's own GET of a form puts it in the URL).
    const sent: string[] = [];
    page.on("request", (r) => sent.push(`${r.method()} ${r.url()} ${r.postData() ?? ""}`));
    const line = await slowLine(page);
    await page.goto("/sign-in?next=%2Fsettings%2Faccount", { waitUntil: "commit" });
    const password = field(page, "Password");
    await expect(password).toBeVisible({ timeout: 90_000 });
    expect(await hydrated(password), "the form must still be server HTML").toBe(false);
    await field(page, "Email").fill(OWNER.email);
    await password.fill(OWNER.password);
    await password.press("Enter");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeDisabled();
    expect(await hydrated(password), "Enter was pressed before hydration").toBe(false);

    await line.fast();
    await expect.poll(() => hydrated(password), { timeout: 90_000 }).toBe(true);
    await expect(password).toHaveValue(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/settings\/account$/);
    const leaked = sent.filter((r) => r.startsWith("GET") && /[?&]password=/.test(r));
    expect(leaked, "no GET carries the password").toEqual([]);
  });

  test("signing up starts an organization of one's own, with its shell", async ({ page, checkPage }) => {
    await page.goto("/sign-up");
    await checkPage(page, "sign-up");
    const email = `new-${Date.now()}@e2e.test`;
    await signUp(page, { name: "Nora New", email, password: "a long enough password" });
    await expect(page.getByText("Nora New's organization")).toBeVisible();
    for (const name of ["Shipments", "Create label", "Trackers", "Settings"]) {
      await expect(page.getByRole("link", { name, exact: true }).first()).toBeVisible();
    }
    await page.goto("/trackers");
    await expect(page.getByRole("heading", { name: "Trackers" })).toBeVisible();
    await checkPage(page, "trackers");
  });

  test("an owner manages API keys; the key works once and stops when revoked", async ({ page, checkPage, request }) => {
    await signIn(page, OWNER);
    await page.goto("/settings/api-keys");
    await page.getByRole("button", { name: "Create key" }).click();
    await field(page, "Name").fill("warehouse-sync");
    await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByRole("dialog").locator("code").innerText()).trim();
    expect(key).toMatch(/^shw_/);
    await page.getByRole("button", { name: "Done" }).click();
    await checkPage(page, "settings-api-keys");
    const headers = { Authorization: `Token ${key}` };
    expect((await request.get("/v1/shipments", { headers })).status()).toBe(200);
    await page
      .getByRole("row", { name: /warehouse-sync/ })
      .getByRole("button", { name: "Revoke" })
      .click();
    await page.getByRole("button", { name: "Revoke key warehouse-sync" }).click();
    await expect(page.getByRole("row", { name: /warehouse-sync/ })).toContainText("Revoked");
    expect((await request.get("/v1/shipments", { headers })).status()).toBe(401);
  });

  test("a member cannot open API keys, in the page or through the API", async ({ page, checkPage }) => {
    await signIn(page, MEMBER);
    await page.goto("/settings/api-keys");
    await expect(page.getByText("Only an owner or admin can manage API keys")).toBeVisible();
    await expect(page.getByRole("link", { name: "API keys" })).toHaveCount(0);
    await checkPage(page, "settings-api-keys-member");
    const answer = await page.evaluate(async () => {
      const res = await fetch("/v1/api_keys", { credentials: "same-origin" });
      return { status: res.status, body: await res.json() };
    });
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].code).toBe("forbidden");
  });

  test("a cookie-authenticated write from another site is refused", async ({ page, baseURL }) => {
    await signIn(page, OWNER);
    const res = await page.request.post("/v1/shipments", {
      headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
      data: {},
    });
    expect(res.status()).toBe(403);
    const same = await page.request.get("/v1/shipments", { headers: { Origin: baseURL! } });
    expect(same.status()).toBe(200);
  });
});
