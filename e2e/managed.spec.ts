import { expect, test } from "./fixtures";

test.describe("managed mode on the running server", () => {
  test("creates, buys, downloads the label, and the in-process refresh moves the tracker with no other process", async ({
    api,
  }) => {
    // A fast sandbox: one simulated hour every 0.36 s, so the pickup scan (3 h) comes about a second after purchase.
    const conn = await api.post("/v1/connections", {
      data: { carrier_name: "sandbox", carrier_id: "e2e-fast", config: { pace: 10_000 } },
    });
    expect(conn.status()).toBe(201);
    const created = await api.post("/v1/shipments", {
      data: {
        shipper: {
          address_line1: "500 Industrial Way",
          city: "Chicago",
          state_code: "IL",
          postal_code: "60607",
          country_code: "US",
        },
        recipient: {
          person_name: "Bob",
          address_line1: "12 Elm St",
          city: "Austin",
          state_code: "TX",
          postal_code: "78701",
          country_code: "US",
        },
        parcels: [{ weight: 1.2, weight_unit: "KG" }],
        carrier_ids: ["e2e-fast"],
      },
    });
    expect(created.status()).toBe(201);
    const draft = await created.json();
    const bought = await api.post(`/v1/shipments/${draft.id}/purchase`, {
      data: { selected_rate_id: draft.rates[0].id },
    });
    expect(bought.status()).toBe(200);
    const { shipment } = await bought.json();
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
