import { expect, test } from "./fixtures";
import { sandboxConnection, shipmentThroughApi } from "./api-shipments";

test.describe("managed mode on the running server", () => {
  test("creates, buys, downloads the label, and the in-process refresh moves the tracker with no other process", async ({
    api,
  }) => {
    // A fast sandbox: one simulated hour every 0.36 s, so the pickup scan (3 h) comes about a second after purchase.
    await sandboxConnection(api, "e2e-fast", { pace: 10_000 });
    const shipment = await shipmentThroughApi(api, { carrier_ids: ["e2e-fast"] });
    expect(shipment.status).toBe("purchased");

    const label = await api.get(`/v1/shipments/${shipment.id}/label`);
    expect(label.status()).toBe(200);
    expect(label.headers()["content-type"]).toBe("application/pdf");
    expect((await label.body()).subarray(0, 5).toString()).toBe("%PDF-");

    const tracker = async () => (await api.get(`/v1/trackers/${shipment.tracker_id}`)).json();
    await expect.poll(async () => (await tracker()).status, { timeout: 30_000, intervals: [500] }).not.toBe("pending");
    const moved = await tracker();
    expect(moved.events.length).toBeGreaterThan(1);
    expect(moved.refreshed_at).not.toBeNull();
    const after = await (await api.get(`/v1/shipments/${shipment.id}`)).json();
    expect(["in_transit", "out_for_delivery", "delivered"]).toContain(after.status);
  });
});
