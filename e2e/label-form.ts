import type { Page } from "@playwright/test";
import { field } from "./fixtures";

/** The create-label form as the browser tests fill it: a US domestic parcel from Chicago to Austin. */

interface Place {
  name: string;
  street: string;
  city: string;
  state: string;
  postal: string;
}

const FROM: Place = {
  name: "Olivia Owner",
  street: "500 Industrial Way",
  city: "Chicago",
  state: "IL",
  postal: "60607",
};
export const TO: Place = { name: "Rita Recipient", street: "12 Elm St", city: "Austin", state: "TX", postal: "78701" };

async function fillAddress(page: Page, legend: "Ship from" | "Ship to", place: Place) {
  const group = page.getByRole("group", { name: legend });
  await group.getByLabel(/^Name/).fill(place.name);
  await group.getByLabel(/^Street address/).fill(place.street);
  await group.getByLabel(/^City/).fill(place.city);
  await group.getByLabel(/^State/).selectOption(place.state);
  await group.getByLabel(/^ZIP code/).fill(place.postal);
}

/** The create form filled for a US domestic parcel, with this reference. */
export async function fillLabel(page: Page, reference: string, to: Place = TO) {
  await page.goto("/shipments/new");
  await fillAddress(page, "Ship from", FROM);
  await fillAddress(page, "Ship to", to);
  await field(page, "Weight").fill("2.5");
  await field(page, "Reference").fill(reference);
}
