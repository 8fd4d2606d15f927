// @vitest-environment happy-dom
import { act, createElement } from "react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";

/**
 * The dashboard's toasts (components/ui/toaster.tsx): sonner arrives after the page has loaded, and a toast asked for
 * before then is shown once it has, not lost.
 */
afterEach(cleanup);

const { Toaster, toast } = await import("@/components/ui/toaster");

it("opens the toasts' region once the page has loaded, and shows the toasts asked for before then", async () => {
  Object.defineProperty(document, "readyState", { value: "loading", configurable: true });
  render(createElement(Toaster));
  toast.success("Label bought before the page had loaded", { description: "Tracking number 1Z999" });
  // Long enough for sonner to arrive (the toast asked for it): the region waits for the page, the toast for the region.
  await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
  expect(document.querySelector("[data-sonner-toaster]")).toBeNull();

  Object.defineProperty(document, "readyState", { value: "complete", configurable: true });
  await act(async () => void window.dispatchEvent(new Event("load")));
  expect(await screen.findByText("Label bought before the page had loaded")).toBeTruthy();
  expect(screen.getByText("Tracking number 1Z999")).toBeTruthy();
  toast.error("Could not sign out.");
  toast.info("The link is below.");
  expect(await screen.findByText("Could not sign out.")).toBeTruthy();
  expect(await screen.findByText("The link is below.")).toBeTruthy();
});
