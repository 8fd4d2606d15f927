import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MEMBER, OWNER } from "./accounts";
import { expect, field, signIn, test } from "./fixtures";
import { sandboxConnection, shipmentThroughApi } from "./api-shipments";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback (the server runs with WEBHOOKS_ALLOW_PRIVATE_URLS=1): it keeps what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" }).end("thanks from the e2e receiver");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/${randomBytes(4).toString("hex")}`, received, server };
}

/** Standard Webhooks: HMAC-SHA256 over `id.timestamp.body`, keyed with the secret's base64 after `whsec_`. */
function signatureOf(secret: string, r: Received): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signed = `${String(r.headers["webhook-id"])}.${String(r.headers["webhook-timestamp"])}.${r.body}`;
  return `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
}

test.describe("Settings → Webhooks", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  test.beforeAll(async () => {
    receiver = await startReceiver();
  });
  test.afterAll(async () => {
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  test("adds an endpoint, sends it a test event, and redelivers a purchase from the delivery log", async ({
    page,
    api,
    checkPage,
  }) => {
    await signIn(page, OWNER);
    await page.goto("/settings/webhooks");
    await expect(page.getByRole("heading", { name: "Webhook endpoints" })).toBeVisible();

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog");
    await field(dialog, "URL").fill(receiver.url);
    await field(dialog, "Description").fill("e2e receiver");
    await dialog.getByLabel("All events (including types added later)").click();
    await dialog.getByLabel("shipment.purchased").click();
    await expect(dialog.getByLabel(/^Test mode/)).toBeChecked();
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect(dialog.getByRole("heading", { name: "Copy the signing secret" })).toBeVisible();
    const secret = (await dialog.getByTestId("signing-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();

    const link = page.getByRole("link", { name: receiver.url });
    await expect(link).toBeVisible();
    const row = page.getByRole("row").filter({ has: link });
    await expect(row).toContainText("Enabled");
    await expect(row).toContainText("shipment.purchased");
    await expect(row).toContainText("TEST");
    await checkPage(page, "settings-webhooks");

    await link.click();
    await expect(page.getByRole("heading", { level: 1, name: receiver.url })).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByTestId("test-result")).toContainText("Test event delivered: 200");
    await expect(page.getByTestId("test-result")).toContainText("thanks from the e2e receiver");
    // Only the ping: the other worker's tests may buy labels in this organization meanwhile, and those purchases
    // reach this endpoint too.
    const pings = receiver.received.filter((r) => JSON.parse(r.body).type === "ping");
    expect(pings).toHaveLength(1);
    const ping = pings[0]!;
    expect(ping.headers["webhook-signature"]).toContain(signatureOf(secret, ping));
    const log = page.getByRole("region", { name: /Delivery log/ });
    await expect(log.getByRole("row").filter({ hasText: "ping" })).toContainText("200");

    // A real event: a sandbox label bought through the API sends shipment.purchased to the endpoint.
    const carrierId = `e2e-webhooks-${randomBytes(3).toString("hex")}`;
    await sandboxConnection(api, carrierId);
    const draft = await shipmentThroughApi(api, { carrier_ids: [carrierId] });

    const purchases = () =>
      receiver.received.filter((r) => {
        const body = JSON.parse(r.body);
        return body.type === "shipment.purchased" && body.data.id === draft.id;
      });
    await expect.poll(() => purchases().length, { timeout: 20_000 }).toBe(1);
    const eventId = String(purchases()[0]!.headers["webhook-id"]);
    expect(eventId).toMatch(/^evt_/);
    expect(purchases()[0]!.headers["webhook-signature"]).toContain(signatureOf(secret, purchases()[0]!));

    await page.reload();
    const eventRows = log.getByRole("row").filter({ hasText: eventId });
    await expect(eventRows).toHaveCount(1);
    await eventRows.getByRole("button", { name: `Redeliver event ${eventId}` }).click();
    await expect(page.getByText(`Event ${eventId} queued for redelivery.`)).toBeVisible();
    await expect.poll(() => purchases().length, { timeout: 20_000 }).toBe(2);
    expect(purchases()[1]!.headers["webhook-id"]).toBe(eventId);

    await expect(async () => {
      await page.reload();
      await expect(eventRows).toHaveCount(2, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await checkPage(page, "settings-webhook-endpoint");
  });

  test("edits, disables, enables and deletes an endpoint", async ({ page, api }) => {
    const url = `${receiver.url}/edit`;
    const made = await api.post("/v1/webhooks", { data: { url, enabled_events: "*", test_mode: true } });
    expect(made.status()).toBe(201);
    const { id } = await made.json();
    await signIn(page, OWNER);
    await page.goto(`/settings/webhooks/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: url })).toBeVisible();

    await page.getByRole("button", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel("All events (including types added later)")).toBeChecked();
    await field(dialog, "Description").fill("renamed in the dashboard");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("renamed in the dashboard")).toBeVisible();

    await page.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByText("Disabled", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Enable" }).click();
    await expect(page.getByText("Enabled", { exact: true })).toBeVisible();

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page).toHaveURL(/\/settings\/webhooks$/);
    await expect(page.getByRole("link", { name: url })).toHaveCount(0);
    expect((await api.get(`/v1/webhooks/${id}`)).status()).toBe(404);
  });

  test("a member reads the endpoints but cannot add one", async ({ page }) => {
    await signIn(page, MEMBER);
    await page.goto("/settings/webhooks");
    await expect(page.getByRole("heading", { name: "Webhook endpoints" })).toBeVisible();
    await expect(page.getByText("an owner or admin can add and change them")).toBeVisible();
    await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  });
});
