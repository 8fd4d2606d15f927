import type { Request } from "@playwright/test";
import { OWNER } from "./accounts";
import { expect, signIn, test } from "./fixtures";

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

  test("an unknown dashboard address answers 404 inside the navigation", async ({ page, checkPage }) => {
    await signIn(page, OWNER);
    const res = await page.goto("/nowhere-at-all");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await checkPage(page, "not-found");
  });

  test("a followed link shows the coming page's shape at once, then the page", async ({ page }) => {
    // The link prefetches its page down to the loading state (the tree, then the route's prefetch): that is what
    // shows at once. A click before every prefetch of it has arrived would wait for the page itself; under load the
    // route's prefetch can come in more than one request, so the test waits until none is in flight.
    const isPrefetch = (r: Request) =>
      new URL(r.url()).pathname === "/trackers" && r.headers()["next-router-prefetch"] === "1";
    const inFlight = new Set<Request>();
    page.on("request", (r) => isPrefetch(r) && inFlight.add(r));
    page.on("requestfinished", (r) => inFlight.delete(r));
    page.on("requestfailed", (r) => inFlight.delete(r));
    const prefetched = page.waitForResponse(
      (r) => isPrefetch(r.request()) && !r.request().headers()["next-router-segment-prefetch"],
    );
    await signIn(page, OWNER);
    await prefetched;
    await expect.poll(() => inFlight.size).toBe(0);
    // The page itself is held back; the loading state the link prefetched is not.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/trackers",
      async (route) => {
        const headers = route.request().headers();
        if (headers.rsc && !headers["next-router-prefetch"] && !headers["next-router-segment-prefetch"]) await held;
        await route.fallback();
      },
    );
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trackers" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Loading…" })).toBeAttached();
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(0);
    release();
    // The page renders only now; under a loaded suite that alone can take longer than an expectation's 5 s.
    await expect(page.getByRole("heading", { level: 1, name: "Trackers" })).toBeVisible({ timeout: 15_000 });
  });
});
