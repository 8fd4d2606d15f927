import type { Page } from "@playwright/test";
import { expect, field, signUp, test } from "./fixtures";
import { fillLabel } from "./label-form";

/** Item 3 of issue 32: the organization's parcel presets and rate rule, set in Settings, used on the label form. */

async function addPreset(page: Page, preset: { name: string; sides: string[]; unit: "in" | "cm"; weight?: string }) {
  await page.getByRole("button", { name: "Add preset" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a parcel preset" });
  await field(dialog, "Name").fill(preset.name);
  for (const [i, label] of ["Length", "Width", "Height"].entries()) await field(dialog, label).fill(preset.sides[i]!);
  await field(dialog, "Size unit").selectOption(preset.unit.toUpperCase());
  if (preset.weight) await field(dialog, "Weight").fill(preset.weight);
  return dialog;
}

test("presets and the rate rule from Settings fill the create-label form; the rule's rate comes chosen", async ({
  page,
  baseURL,
  checkPage,
}) => {
  await signUp(page, {
    name: "Pat Parcels",
    email: `parcels-${Date.now()}@example.com`,
    password: "a long enough password",
  });
  await page.goto("/settings/parcels");
  await expect(page.getByText("No parcel presets yet")).toBeVisible();
  await checkPage(page, "settings-parcels-empty");

  // A default box with its weight, and a mailer in centimetres.
  let dialog = await addPreset(page, { name: "Shoe box", sides: ["14", "10", "5"], unit: "in", weight: "3" });
  await dialog.getByRole("checkbox", { name: "Default preset" }).check();
  await dialog.getByRole("button", { name: "Add preset" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row", { name: /Shoe box/ })).toBeVisible();
  dialog = await addPreset(page, { name: "Flat mailer", sides: ["30", "22", "abc"], unit: "cm" });
  await dialog.getByRole("button", { name: "Add preset" }).click();
  // A typing slip is named on its field, and nothing is saved.
  await expect(field(dialog, "Height")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, "settings-parcels-dialog");
  await field(dialog, "Height").fill("3");
  await dialog.getByRole("button", { name: "Add preset" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row", { name: /Shoe box\s*Default/ })).toContainText("14 × 10 × 5 in");
  await expect(page.getByRole("row", { name: /Flat mailer/ })).toContainText("30 × 22 × 3 cm");

  // The rule: fastest.
  await field(page, "Preselect").selectOption("fastest");
  await page.getByRole("button", { name: "Save rate rule" }).click();
  await expect(page.getByText("Rate rule saved.")).toBeVisible();
  await checkPage(page, "settings-parcels");

  // A blank form: the default box fills the parcel (a weight typed after stays the clerk's).
  await page.goto("/shipments/new");
  await expect(field(page, "Package")).toHaveValue(/^pps_/);
  await expect(field(page, "Length")).toHaveValue("14");
  await expect(field(page, "Weight")).toHaveValue("3");
  await fillLabel(page, `PRESET-${Date.now()}`);
  await expect(field(page, "Weight")).toHaveValue("2.5");
  await expect(field(page, "Length")).toHaveValue("14");

  // Another preset: its size, and the weight the clerk typed kept.
  await field(page, "Package").selectOption({ label: "Flat mailer, 30 × 22 × 3 cm" });
  await expect(field(page, "Length")).toHaveValue("30");
  await expect(field(page, "Size unit")).toHaveValue("CM");
  await expect(field(page, "Weight")).toHaveValue("2.5");

  await page.getByRole("button", { name: "Get rates" }).click();
  await expect(page.getByText("Your organization preselects the fastest rate.")).toBeVisible();
  const chosen = page.getByRole("radiogroup", { name: "Rates", exact: true }).getByRole("radio", { checked: true });
  await expect(chosen).toContainText("Fastest");
  await checkPage(page, "create-label-presets");
  await page.getByRole("button", { name: /^Buy label/ }).click();
  await expect(page).toHaveURL(/\/shipments\/shp_[0-9a-f]{32}$/, { timeout: 30_000 });
  const id = page.url().split("/").pop()!;
  const shipment = await (await page.request.get(`/v1/shipments/${id}`)).json();
  expect(shipment.parcels[0]).toMatchObject({ length: 30, width: 22, height: 3, dimension_unit: "CM", weight: 2.5 });

  // A fixed service this parcel cannot go with (the sandbox's international one, for a US parcel): the cheapest is
  // chosen, and the form says why.
  const put = await page.request.put("/v1/rate_rule", {
    data: { kind: "fixed", carrier_id: "sandbox", service: "SBX_INTL" },
    headers: { Origin: baseURL! },
  });
  expect(put.status()).toBe(200);
  await fillLabel(page, `FIXED-${Date.now()}`);
  await page.getByRole("button", { name: "Get rates" }).click();
  await expect(
    page.locator("p:not([role=status])", { hasText: /SBX_INTL \(sandbox\), which is not offered for this/ }),
  ).toBeVisible();
  await expect(
    page.getByRole("radiogroup", { name: "Rates", exact: true }).getByRole("radio", { checked: true }),
  ).toContainText("Cheapest");
});
