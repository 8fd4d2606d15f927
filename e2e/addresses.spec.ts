import type { Locator, Page } from "@playwright/test";
import { expect, field, signUp, test } from "./fixtures";

// UPS Address Validation answers from the carrier emulator (test/emulator/ups-address.ts): 1100 Congress Ave is
// verified (commercial), 500 W 2nd St needs its suite, 100 Main St in 10001 is ambiguous, 4 Privet Dr is residential.
const UPS = {
  carrier_name: "ups",
  carrier_id: "ups-addresses-e2e",
  credentials: { client_id: "e2e-client", client_secret: "e2e-ups-secret", account_number: "A1B2C3" },
};

interface Place {
  name?: string;
  company?: string;
  street: string;
  line2?: string;
  city: string;
  state: string;
  postal: string;
}

const block = (page: Page, legend: "Ship from" | "Ship to") => page.getByRole("group", { name: legend });

/** Types an address into a block, then leaves it (as a clerk tabs on to the parcel): that is when it is checked. */
async function enterAddress(page: Page, legend: "Ship from" | "Ship to", place: Place) {
  const group = block(page, legend);
  if (place.name !== undefined) await field(group, "Name").fill(place.name);
  if (place.company !== undefined) await field(group, "Company").fill(place.company);
  await field(group, "Street address").fill(place.street);
  await field(group, "Apartment, suite, unit").fill(place.line2 ?? "");
  await field(group, "City").fill(place.city);
  await field(group, "State").selectOption(place.state);
  await field(group, "ZIP code").fill(place.postal);
  await field(page, "Weight").click();
}

async function newOrganization(page: Page, who: string) {
  await signUp(page, {
    name: who,
    email: `${who.toLowerCase()}-${Date.now()}@example.com`,
    password: "a long enough password",
  });
}

const status = (group: Locator) => group.getByRole("status").first();

/** A new organization with a UPS connection (its address validation answered by the emulator), on a new label. */
async function withUps(page: Page, baseURL: string, who: string) {
  await newOrganization(page, who);
  const res = await page.request.post("/v1/connections", { data: UPS, headers: { Origin: baseURL } });
  expect(res.status()).toBe(201);
  await page.goto("/shipments/new");
}

test.describe("addresses on the create-label form", () => {
  test("a bad ZIP is named before buying; a correction applies only on Accept", async ({
    page,
    baseURL,
    checkPage,
  }) => {
    await withUps(page, baseURL!, "Vera");

    const from = block(page, "Ship from");
    await enterAddress(page, "Ship from", {
      name: "Vera Sender",
      street: "1100 Congress Ave",
      city: "Austin",
      state: "TX",
      postal: "78701",
    });
    await expect(status(from)).toHaveText("Address verified by UPS.");
    await expect(from.getByTestId("residential")).toHaveText("Residential: no (per UPS)");

    // Austin, TX with a Chicago ZIP: said under the ZIP code as soon as the clerk leaves the block.
    const to = block(page, "Ship to");
    await enterAddress(page, "Ship to", {
      name: "Rita Recipient",
      street: "12 Elm St",
      city: "Austin",
      state: "TX",
      postal: "60607",
    });
    const zip = field(to, "ZIP code");
    await expect(zip).toHaveAttribute("aria-invalid", "true");
    await expect(to.getByText("60607 is not a postal code of US-TX.")).toBeVisible();
    await expect(status(to)).toContainText("This address has problems");
    await checkPage(page, "addresses-zip-mismatch");

    // A high-rise without its suite: UPS's correction is shown as a diff, and the field is untouched until Accept.
    await enterAddress(page, "Ship to", { street: "500 W 2nd St", city: "Austin", state: "TX", postal: "78701" });
    const correction = to.getByRole("region", { name: "UPS suggests a corrected address" });
    await expect(correction).toBeVisible();
    await expect(correction.getByRole("row", { name: /Apartment, suite, unit/ })).toContainText("STE 1900");
    await expect(field(to, "Apartment, suite, unit")).toHaveValue("");
    await expect(zip).not.toHaveAttribute("aria-invalid", "true");
    await checkPage(page, "addresses-corrected");
    await correction.getByRole("button", { name: "Accept" }).click();
    await expect(field(to, "Apartment, suite, unit")).toHaveValue("STE 1900");
    await expect(field(to, "Street address")).toHaveValue("500 W 2nd St");
    await expect(status(to)).toHaveText("Address verified by UPS.");
    await expect(correction).toHaveCount(0);
  });

  test("Keep mine keeps the text and is not asked again; residential differs from the flag", async ({
    page,
    baseURL,
    checkPage,
  }) => {
    await withUps(page, baseURL!, "Ugo");
    const to = block(page, "Ship to");
    await field(to, "Name").fill("Rita Recipient");

    // Ambiguous: two candidates, and "Keep mine" keeps what was typed, and is not asked again for this address.
    await enterAddress(page, "Ship to", { street: "100 Main St", city: "New York", state: "NY", postal: "10001" });
    const candidates = to.getByRole("region", { name: "UPS knows 2 addresses that could be meant" });
    await expect(candidates.getByRole("button", { name: "Accept option 2" })).toBeVisible();
    await expect(candidates.getByRole("row", { name: /Street address/ }).first()).toContainText("100 N MAIN ST");
    await checkPage(page, "addresses-ambiguous");
    await candidates.getByRole("button", { name: "Keep mine" }).click();
    await expect(field(to, "Street address")).toHaveValue("100 Main St");
    await expect(to.getByText(/^Kept as you typed it/)).toBeVisible();
    await field(to, "City").click();
    await field(page, "Weight").click();
    await expect(to.getByText(/^Kept as you typed it/)).toBeVisible();
    await expect(candidates).toHaveCount(0);

    // Residential per UPS against the flag the rates will be asked with; the flag changes only on the clerk's word.
    await enterAddress(page, "Ship to", { street: "4 Privet Dr", city: "San Francisco", state: "CA", postal: "94105" });
    await expect(to.getByTestId("residential")).toHaveText("Residential: yes (per UPS)");
    const warning = to.getByRole("alert").filter({ hasText: "UPS classes this address as residential" });
    await expect(warning).toBeVisible();
    await expect(to.getByRole("checkbox", { name: "Residential address" })).not.toBeChecked();
    await checkPage(page, "addresses-residential");
    await warning.getByRole("button", { name: "Mark as residential" }).click();
    await expect(to.getByRole("checkbox", { name: "Residential address" })).toBeChecked();
    await expect(warning).toHaveCount(0);

    // Back to the ambiguous address: kept as typed, it does not nag again.
    await enterAddress(page, "Ship to", { street: "100 Main St", city: "New York", state: "NY", postal: "10001" });
    await expect(status(to)).toHaveText("Checked by UPS: more than one address could be meant.");
    await expect(to.getByText(/^Kept as you typed it/)).toBeVisible();
    await expect(candidates).toHaveCount(0);
  });

  test("a printable spelling only on consent; an address saved to the book fills the other block", async ({
    page,
    checkPage,
  }) => {
    await newOrganization(page, "Theo");
    await page.goto("/shipments/new");
    const to = block(page, "Ship to");
    await enterAddress(page, "Ship to", {
      name: "Zoë Tanaka",
      company: "Tanaka 株式会社",
      street: "1 Harbor Blvd",
      city: "Oakland",
      state: "CA",
      postal: "94607",
    });
    const company = field(to, "Company");
    await expect(
      to.getByText("Most carriers print Latin letters only: these characters would come out as “?”."),
    ).toBeVisible();
    // A warning, not an error: the label can still be bought as typed.
    await expect(company).not.toHaveAttribute("aria-invalid", "true");
    const spelling = to.getByRole("region", { name: /printable spelling/ });
    await expect(spelling.getByRole("row", { name: /Company/ })).toContainText("Tanaka ZhuShiHuiShe");
    await expect(company).toHaveValue("Tanaka 株式会社");
    await expect(status(to)).toHaveText(
      "Not verified by a carrier. No connection of this organization verifies US addresses; the offline checks passed.",
    );
    await checkPage(page, "addresses-transliteration");
    await spelling.getByRole("button", { name: "Accept" }).click();
    await expect(company).toHaveValue("Tanaka ZhuShiHuiShe");
    // "Zoë" is Latin: carriers print it, so it was never part of the suggestion.
    await expect(field(to, "Name")).toHaveValue("Zoë Tanaka");

    await to.getByRole("button", { name: "Save to address book", exact: true }).click();
    await expect(page.getByText("Saved to the address book: Zoë Tanaka · Tanaka ZhuShiHuiShe.")).toBeVisible();

    // The mouse path through the address book (the keyboard's is the next test).
    const from = block(page, "Ship from");
    const search = from.getByRole("combobox", { name: "Address book" });
    // Clicked first, as a person does. A bare fill() scrolls the field into view and types in the same frame, so the
    // page's scroll event lands after the list opened, and React Aria closes a list whose page scrolls.
    await search.click();
    await search.fill("harbor");
    const book = page.getByRole("listbox", { name: "Address book" });
    const result = book.getByRole("option", { name: /Zoë Tanaka/ });
    await expect(result).toContainText("1 Harbor Blvd, Oakland, CA 94607, US");
    // Scrolling the page closes the list, and keeps the search: Down opens it again on the same answer.
    await page.mouse.wheel(0, 120);
    await expect(book).toHaveCount(0);
    await expect(search).toHaveValue("harbor");
    await search.press("ArrowDown");
    await expect(result).toContainText("1 Harbor Blvd, Oakland, CA 94607, US");
    await checkPage(page, "addresses-book-open", ['[role="combobox"][aria-expanded="true"]', '[role="listbox"]']);
    await search.fill("nowhere street");
    await expect(book.getByText("No saved address matches.")).toBeVisible();
    await search.fill("oakland");
    await result.click();
    await expect(book).toHaveCount(0);
    await expect(search).toHaveValue("");
    await checkPage(page, "addresses-book");
    await expect(field(from, "Name")).toHaveValue("Zoë Tanaka");
    await expect(field(from, "Street address")).toHaveValue("1 Harbor Blvd");
    await expect(field(from, "City")).toHaveValue("Oakland");
    await expect(field(from, "State")).toHaveValue("CA");
    await expect(field(from, "ZIP code")).toHaveValue("94607");
    // Filled from the book, the block is checked at once.
    await expect(status(from)).toContainText("Not verified by a carrier.");
  });
});

test("the address book picker with the keyboard alone: type, Up/Down, Enter fills, Escape closes", async ({
  page,
  baseURL,
  checkPage,
}) => {
  await newOrganization(page, "Kai");
  // The book answers newest first: "mar" finds Marco, then Marta; Oscar matches nothing of it.
  for (const body of [
    {
      person_name: "Marta Lindqvist",
      address_line1: "18 Alder St",
      city: "Portland",
      state_code: "OR",
      postal_code: "97205",
    },
    { person_name: "Oscar Wu", address_line1: "9 Pine Rd", city: "Boise", state_code: "ID", postal_code: "83702" },
    { person_name: "Marco Ruiz", address_line1: "77 Elm Ave", city: "Denver", state_code: "CO", postal_code: "80202" },
  ]) {
    const res = await page.request.post("/v1/addresses", {
      data: { ...body, country_code: "US" },
      headers: { Origin: baseURL! },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto("/shipments/new");
  const to = block(page, "Ship to");
  const search = to.getByRole("combobox", { name: "Address book" });
  await search.focus();
  await expect(search).toBeFocused();
  await expect(search).toHaveAttribute("aria-expanded", "false");

  await page.keyboard.type("mar");
  const list = page.getByRole("listbox", { name: "Address book" });
  const options = list.getByRole("option");
  await expect(options).toHaveCount(2);
  await expect(search).toHaveAttribute("aria-expanded", "true");
  await expect(search).toHaveAttribute("aria-controls", (await list.getAttribute("id"))!);
  const [marco, marta] = [options.nth(0), options.nth(1)];
  await expect(marco).toContainText("Marco Ruiz");
  await expect(marta).toContainText("Marta Lindqvist");
  /** The option the field points at (aria-activedescendant), shown as the highlighted one; the focus stays in the field. */
  const highlighted = async (option: Locator) => {
    await expect(search).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
    await expect(option).toHaveAttribute("data-focused", "true");
    await expect(search).toBeFocused();
  };
  await page.keyboard.press("ArrowDown");
  await highlighted(marco);
  await page.keyboard.press("ArrowDown");
  await highlighted(marta);
  await expect(marco).not.toHaveAttribute("data-focused", "true");
  await page.keyboard.press("ArrowUp");
  await highlighted(marco);
  await page.keyboard.press("ArrowDown");
  await highlighted(marta);
  // While the list is open React Aria hides the rest of the page from screen readers: the field and the list are
  // scanned now, the page once the list has closed.
  await checkPage(page, "addresses-book-keyboard-open", [
    '[role="combobox"][aria-expanded="true"]',
    '[role="listbox"]',
  ]);

  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  await expect(search).toBeFocused();
  await expect(search).toHaveValue("");
  await expect(field(to, "Name")).toHaveValue("Marta Lindqvist");
  await expect(field(to, "Street address")).toHaveValue("18 Alder St");
  await expect(field(to, "City")).toHaveValue("Portland");
  await expect(field(to, "State")).toHaveValue("OR");
  await expect(field(to, "ZIP code")).toHaveValue("97205");
  await checkPage(page, "addresses-book-keyboard");

  // A search with no match says so in the list; Escape closes it and changes nothing.
  await page.keyboard.type("zzz");
  await expect(list.getByText("No saved address matches.")).toBeVisible();
  await expect(list.getByText("Marco Ruiz")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(search).toBeFocused();
  await expect(field(to, "Name")).toHaveValue("Marta Lindqvist");

  // Down in an empty field lists the newest saved addresses; Escape closes again.
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("ArrowDown");
  await expect(options).toHaveCount(3);
  await expect(options.first()).toContainText("Marco Ruiz");
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);

  // Picked from the empty field's list, the newest fills the block and the list closes.
  await page.keyboard.press("ArrowDown");
  await expect(options).toHaveCount(3);
  await highlighted(marco);
  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  await expect(field(to, "Name")).toHaveValue("Marco Ruiz");
  await expect(search).toHaveValue("");
});

test("the address book in Settings: searched, and an address deleted after a confirmation that names it", async ({
  page,
  baseURL,
  checkPage,
}) => {
  await newOrganization(page, "Bea");
  for (const body of [
    {
      label: "Warehouse",
      company_name: "Bea Goods",
      address_line1: "1100 Congress Ave",
      city: "Austin",
      state_code: "TX",
      postal_code: "78701",
      country_code: "US",
      is_default_sender: true,
    },
    {
      person_name: "Sam Customer",
      address_line1: "4 Privet Dr",
      city: "San Francisco",
      state_code: "CA",
      postal_code: "94105",
      country_code: "US",
      residential: true,
    },
  ]) {
    const res = await page.request.post("/v1/addresses", { data: body, headers: { Origin: baseURL! } });
    expect(res.status()).toBe(201);
  }
  await page.goto("/settings/addresses");
  await expect(page.getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("row", { name: /Warehouse · Bea Goods/ })).toContainText("Default ship-from");
  await field(page, "Search").fill("privet");
  await expect(page).toHaveURL(/q=privet/);
  await expect(page.getByRole("row")).toHaveCount(2);
  await checkPage(page, "settings-addresses");

  const row = page.getByRole("row", { name: /Sam Customer/ });
  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete Sam Customer" }).click();
  await expect(page.getByText("Deleted from the address book: Sam Customer.")).toBeVisible();
  await expect(page.getByText("No saved address matches")).toBeVisible();
  await field(page, "Search").fill("");
  await expect(page.getByRole("row")).toHaveCount(2);

  // Before Bea has bought a label, a new one starts from the organization's default ship-from.
  await page.goto("/shipments/new");
  const from = block(page, "Ship from");
  await expect(field(from, "Company")).toHaveValue("Bea Goods");
  await expect(field(from, "Street address")).toHaveValue("1100 Congress Ave");
  await expect(field(from, "ZIP code")).toHaveValue("78701");
});
