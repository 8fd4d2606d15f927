import type { BrowserContext, Page } from "@playwright/test";
import { expect, field, signUp, test } from "./fixtures";

/** A fresh organization of its own (its first person is the owner), so this file shares no settings with others. */
async function newOwner(page: Page, tag: string) {
  const user = { name: `Sol ${tag}`, email: `sol-${tag}-${Date.now()}@e2e.test`, password: "a long enough password" };
  await signUp(page, user);
  return user;
}

async function inFreshBrowser<T>(
  newContext: () => Promise<BrowserContext>,
  fn: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await newContext();
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
  }
}

test.describe("settings", () => {
  test("an owner adds a UPS connection through the generated form, tests, edits, deactivates and deletes it", async ({
    page,
    checkPage,
  }) => {
    await newOwner(page, "carriers");
    await page.goto("/settings/connections");
    await expect(page.getByRole("heading", { name: "Carrier connections" })).toBeVisible();
    await checkPage(page, "settings-connections");

    await page.getByRole("button", { name: "Add connection" }).click();
    const dialog = page.getByRole("dialog");
    await field(dialog, "Carrier").selectOption("ups");
    await field(dialog, "Connection id").fill("ups-settings");
    await field(dialog, "Client id").fill("e2e-client");
    await field(dialog, "Client secret").fill("e2e-ups-secret");
    await expect(field(dialog, "Client secret")).toHaveAttribute("type", "password");
    // The schema cannot say UPS's account number shape; the API's answer lands beside the field.
    await field(dialog, "Account number").fill("12");
    await checkPage(page, "settings-connections-add");
    await dialog.getByRole("button", { name: "Add connection" }).click();
    await expect(dialog.getByText("must be the 6-character UPS account (shipper) number")).toBeVisible();
    await field(dialog, "Account number").fill("A1B2C3");
    await dialog.getByRole("button", { name: "Add connection" }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole("row", { name: /ups-settings/ });
    await expect(row).toContainText("Active");
    await expect(row).toContainText("TEST");
    expect(await page.content()).not.toContain("e2e-ups-secret");

    await row.getByRole("button", { name: "Test ups-settings" }).click();
    await expect(page.getByRole("dialog")).toContainText(/The carrier answered with \d+ rates?/, { timeout: 15_000 });
    await checkPage(page, "settings-connections-test");
    await page.keyboard.press("Escape");

    await row.getByRole("button", { name: "Edit ups-settings" }).click();
    await field(page.getByRole("dialog"), "Tracking: calls per minute").fill("30");
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await row.getByRole("button", { name: "Edit ups-settings" }).click();
    await expect(field(page.getByRole("dialog"), "Tracking: calls per minute")).toHaveValue("30");
    await expect(field(page.getByRole("dialog"), "Client secret")).toHaveValue("");
    await page.keyboard.press("Escape");

    await row.getByRole("button", { name: "Deactivate ups-settings" }).click();
    await expect(row).toContainText("Inactive");
    await expect(row.getByRole("button", { name: "Test ups-settings" })).toBeDisabled();
    await row.getByRole("button", { name: "Delete ups-settings" }).click();
    await page.getByRole("button", { name: "Delete connection ups-settings" }).click();
    await expect(page.getByRole("row", { name: /ups-settings/ })).toHaveCount(0);
  });

  test("an API key is shown once, works with fetch, and answers 401 once revoked", async ({
    page,
    checkPage,
    baseURL,
  }) => {
    await newOwner(page, "keys");
    await page.goto("/settings/api-keys");
    await page.getByRole("button", { name: "Create key" }).click();
    await field(page, "Name").fill("settings-e2e");
    await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByRole("dialog").locator("code").innerText()).trim();
    expect(key).toMatch(/^shw_/);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("row", { name: /settings-e2e/ })).toContainText(key.slice(0, 10));
    await checkPage(page, "settings-api-keys-owner");

    const shipments = () =>
      fetch(new URL("/v1/shipments", baseURL), { headers: { Authorization: `Token ${key}` } }).then((r) => r.status);
    expect(await shipments()).toBe(200);
    await page
      .getByRole("row", { name: /settings-e2e/ })
      .getByRole("button", { name: "Revoke" })
      .click();
    await page.getByRole("button", { name: "Revoke key settings-e2e" }).click();
    await expect(page.getByRole("row", { name: /settings-e2e/ })).toContainText("Revoked");
    expect(await shipments()).toBe(401);

    // The audit log names the person who made and revoked the key, newest first, and filters by action.
    await page.getByRole("link", { name: "Audit log" }).click();
    await expect(page.getByRole("row", { name: /api_key\.revoked/ })).toContainText("Sol keys");
    await expect(page.getByRole("row", { name: /api_key\.created/ }).first()).toBeVisible();
    await checkPage(page, "settings-audit");
    await page.getByLabel("Action").selectOption("api_key.revoked");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/action=api_key\.revoked/);
    await expect(page.getByRole("row", { name: /api_key\.created/ })).toHaveCount(0);
  });

  test("an invited member joins through the link after signing up, and cannot open API keys", async ({
    page,
    newContext,
    checkPage,
  }) => {
    const owner = await newOwner(page, "team");
    await page.goto("/settings/team");
    await expect(page.getByRole("row", { name: new RegExp(owner.email) })).toContainText("the last owner");
    const invitee = { name: "Ivy Invited", email: `ivy-${Date.now()}@e2e.test`, password: "another long password" };
    await page.getByRole("button", { name: "Invite" }).click();
    await field(page.getByRole("dialog"), "Email").fill(invitee.email);
    await page.getByRole("dialog").getByRole("button", { name: "Create invitation link" }).click();
    const link = (await page.getByTestId("invite-link").innerText()).trim();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByText(`${invitee.email}`)).toBeVisible();
    await checkPage(page, "settings-team");

    // A box of the organization's own, for the member to see below.
    await page.goto("/settings/parcels");
    await page.getByRole("button", { name: "Add preset" }).click();
    const presetDialog = page.getByRole("dialog", { name: "Add a parcel preset" });
    await field(presetDialog, "Name").fill("Team box");
    for (const [label, side] of [
      ["Length", "12"],
      ["Width", "9"],
      ["Height", "4"],
    ]) {
      await field(presetDialog, label!).fill(side!);
    }
    await field(presetDialog, "Size unit").selectOption("IN");
    await presetDialog.getByRole("button", { name: "Add preset" }).click();
    await expect(presetDialog).toBeHidden();

    await inFreshBrowser(newContext, async (other) => {
      await other.goto(link);
      await expect(other.getByRole("heading", { name: `Join Sol team's organization` })).toBeVisible();
      await checkPage(other, "invite");
      await other.getByRole("link", { name: "Create an account to accept" }).click();
      // The address the invitation was sent to comes filled in: the account is made with the one it expects.
      await expect(field(other, "Email")).toHaveValue(invitee.email);
      await field(other, "Name").fill(invitee.name);
      await field(other, "Password").fill(invitee.password);
      const signUp = other.waitForRequest((r) => r.url().endsWith("/api/auth/sign-up/email"));
      await other.getByRole("button", { name: "Create account" }).click();
      // The link's token goes with the sign-up: under SIGN_UP=invite_only it is what lets the invited address in.
      const token = new URL(link).pathname.split("/").pop();
      expect((await signUp).postDataJSON()).toMatchObject({ email: invitee.email, invitation: token });
      await other.getByRole("button", { name: "Join Sol team's organization" }).click();
      await expect(other).toHaveURL(/\/shipments$/);
      await other.goto("/settings/api-keys");
      await expect(other.getByText("Only an owner or admin can manage API keys")).toBeVisible();
      await other.goto("/settings/team");
      await expect(other.getByRole("row", { name: new RegExp(invitee.email) })).toContainText("member");
      await checkPage(other, "settings-team-member");
      // A member reads the organization's boxes and rate rule; only an owner or admin changes them.
      await other.goto("/settings/parcels");
      await expect(other.getByRole("row", { name: /Team box/ })).toContainText("12 × 9 × 4 in");
      await expect(other.getByText("An owner or admin can change them.", { exact: false })).toBeVisible();
      await expect(other.getByRole("button", { name: /Add preset|Edit|Delete|Save rate rule/ })).toHaveCount(0);
      await expect(field(other, "Preselect")).toBeDisabled();
      await checkPage(other, "settings-parcels-member");
      // The link worked once.
      await other.goto(link);
      await expect(other.getByText("This invitation has already been used.", { exact: false })).toBeVisible();
      await checkPage(other, "invite-used");
    });

    await page.goto("/settings/team");
    const member = page.getByRole("row", { name: new RegExp(invitee.email) });
    await member.getByRole("combobox", { name: `Role of ${invitee.name}` }).selectOption("admin");
    await expect(page.getByText(`${invitee.name} is now an admin.`)).toBeVisible();
    await member.getByRole("button", { name: "Remove" }).click();
    await page.getByRole("button", { name: `Remove ${invitee.name}` }).click();
    await expect(page.getByRole("row", { name: new RegExp(invitee.email) })).toHaveCount(0);
  });
});
