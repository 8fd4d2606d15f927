import type { Page } from "@playwright/test";
import { expect, signUp, test } from "./fixtures";
import { fillLabel } from "./label-form";

/** Where the focus is, in words: a link's or button's name, or the element's tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "body";
    const inToast = !!el.closest("[data-sonner-toaster]");
    const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40);
    return `${inToast ? "toast:" : ""}${el.tagName.toLowerCase()}:${name}`;
  });

test("after a purchase, Tab moves on past the toast instead of looping back to “Open tracker”", async ({ page }) => {
  await signUp(page, {
    name: "Tab Tester",
    email: `tab-${Date.now()}@example.com`,
    password: "a long enough password",
  });
  await fillLabel(page, `TAB-${Date.now()}`);
  await page.getByRole("button", { name: "Get rates" }).click();
  await expect(page.getByRole("radiogroup", { name: "Rates", exact: true }).getByRole("radio").first()).toBeVisible();
  await page.getByRole("button", { name: /^Buy label/ }).click();
  await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
  const toast = page.locator("[data-sonner-toast]");
  await expect(toast).toContainText("Label bought");
  // Hovering would hold the toast open; the keyboard alone, from "Open tracker" on.
  await page.getByRole("link", { name: "Open tracker" }).focus();
  const stops: string[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    stops.push(await focused(page));
  }
  const left = stops.findIndex((s) => s.startsWith("toast:"));
  expect(left, "Tab reaches the toast").toBeGreaterThanOrEqual(0);
  const after = stops.slice(left).find((s) => !s.startsWith("toast:"));
  expect(after, "focus leaving the toast").toBeDefined();
  // The toasts are the cycle's first stops (app/providers.tsx): on from them is the page's first, "Skip to content".
  expect(after, stops.join(" → ")).toMatch(/Skip to content/);
});
