import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { newSigningSecret } from "./endpoint-rows";
import { signedHeaders } from "./sign";

const body = JSON.stringify({ id: "evt_1", type: "ping", data: {} });

describe("signedHeaders", () => {
  it("names the message, writes the attempt's time in whole Unix seconds (rounded down), and signs with the secret", () => {
    const secret = newSigningSecret();
    // 999 ms into a second: rounding to nearest would write the next second.
    const at = new Date(Date.UTC(2026, 10, 20, 10, 0, 0, 999));
    const headers = signedHeaders("evt_1", at, body, [secret]);
    expect(Object.keys(headers).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    expect(headers["webhook-id"]).toBe("evt_1");
    expect(headers["webhook-timestamp"]).toBe(String(Date.UTC(2026, 10, 20, 10, 0, 0) / 1000));
    expect(headers["webhook-signature"]).toBe(new Webhook(secret).sign("evt_1", at, body));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it("signs once per secret, separated by a space, so a receiver holding either verifies", () => {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    const at = new Date("2026-11-20T10:00:00Z");
    const headers = signedHeaders("evt_2", at, body, [current, previous]);
    expect(headers["webhook-signature"]).toBe(
      `${new Webhook(current).sign("evt_2", at, body)} ${new Webhook(previous).sign("evt_2", at, body)}`,
    );
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
  });

  it("signs the body's UTF-8 bytes, and a secret given without its whsec_ prefix, as the library does", () => {
    // Now: the library's verify checks the timestamp against its clock.
    const at = new Date();
    const text = JSON.stringify({ id: "evt_3", data: { city: "Zürich", note: "✓ 📦" } });
    const secret = newSigningSecret();
    const bare = secret.slice("whsec_".length);
    const headers = signedHeaders("evt_3", at, text, [secret, bare]);
    const expected = new Webhook(secret).sign("evt_3", at, text);
    expect(headers["webhook-signature"]).toBe(`${expected} ${expected}`);
    expect(new Webhook(bare).verify(text, headers)).toEqual(JSON.parse(text));
  });
});
