import { OWNER } from "./accounts";
import { expect, signIn, test, watchCsp } from "./fixtures";

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | undefined): Map<string, string[]> {
  expect(policy, "Content-Security-Policy").toBeTruthy();
  return new Map(
    policy!.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

const nonceOf = (policy: Map<string, string[]>) =>
  policy
    .get("script-src")
    ?.find((value) => value.startsWith("'nonce-"))
    ?.slice(7, -1);

test.describe("the pages' Content-Security-Policy", () => {
  test("every page answer carries a strict policy with a nonce of its own, which the page's scripts carry", async ({
    request,
  }) => {
    const nonces = new Set<string>();
    // A page, a signed-out visit's redirect, an unknown page and a public tracking link, each twice.
    for (const path of ["/sign-in", "/sign-up", "/", "/nothing", `/track/${"0".repeat(32)}`]) {
      for (let visit = 0; visit < 2; visit++) {
        const res = await request.get(path, { maxRedirects: 0 });
        const policy = directives(res.headers()["content-security-policy"]);
        expect(policy.get("script-src"), path).toEqual([
          "'self'",
          expect.stringMatching(/^'nonce-/),
          "'strict-dynamic'",
        ]);
        expect(policy.get("object-src"), path).toEqual(["'none'"]);
        expect(policy.get("base-uri"), path).toEqual(["'none'"]);
        expect(policy.get("form-action"), path).toEqual(["'self'"]);
        expect(policy.get("frame-ancestors"), path).toEqual(["'none'"]);
        expect(policy.get("default-src"), path).toEqual(["'self'"]);
        const nonce = nonceOf(policy)!;
        expect(nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 128 bits
        nonces.add(nonce);
        if (res.status() !== 200 && res.status() !== 404) continue;
        const html = await res.text();
        const scripts = html.match(/<script\b[^>]*>/g) ?? [];
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
      }
    }
    expect(nonces.size, "a nonce is never sent twice").toBe(10);
  });

  test("a signed-in page carries the policy and its scripts the nonce", async ({ page }) => {
    await signIn(page, OWNER);
    const res = await page.goto("/shipments");
    const nonce = nonceOf(directives(res!.headers()["content-security-policy"]))!;
    const tags = (await res!.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
  });

  test("a script injected into a page is refused while the page's own scripts run", async ({ browser }) => {
    // A context of its own, unwatched by the fixtures: the violation is what this test expects.
    const context = await browser.newContext();
    const found = await watchCsp(context);
    const page = await context.newPage();
    // What an HTML injection would look like: markup in the page the server did not write, without the nonce.
    await page.route("**/sign-in", async (route) => {
      const res = await route.fetch();
      const html = (await res.text()).replace("</body>", "<script>window.__injected = true</script></body>");
      await route.fulfill({ response: res, body: html });
    });
    await page.goto("/sign-in");
    await expect.poll(() => found.length).toBeGreaterThan(0);
    expect(found.join("\n")).toContain("script-src-elem refused inline");
    expect(await page.evaluate(() => "__injected" in window)).toBe(false);
    // The page became interactive: React hydrated it (its own inline scripts and chunks ran, by the nonce).
    await expect
      .poll(() =>
        page.evaluate(() => Object.keys(document.querySelector("form")!).some((k) => k.startsWith("__react"))),
      )
      .toBe(true);
    await context.close();
  });
});
