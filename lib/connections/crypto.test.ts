import { describe, expect, it } from "vitest";
import { decryptJson, encryptJson } from "./crypto";

describe("credential encryption", () => {
  it("round-trips, uses a fresh IV each time and hides the plaintext", () => {
    const secret = { client_id: "id-123", client_secret: "s3cr3t-value" };
    const a = encryptJson(secret, "car_1");
    const b = encryptJson(secret, "car_1");
    expect(a).not.toBe(b);
    expect(a).not.toContain("s3cr3t");
    expect(decryptJson(a, "car_1")).toEqual(secret);
  });

  it("refuses a tampered ciphertext or the wrong row", () => {
    const env = encryptJson({ k: "v" }, "car_1");
    const parts = env.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    const tampered = [parts[0], parts[1], parts[2], body.toString("base64url")].join(".");
    expect(() => decryptJson(tampered, "car_1")).toThrow();
    expect(() => decryptJson(env, "car_2")).toThrow();
    expect(() => decryptJson("garbage", "car_1")).toThrow(/envelope/);
  });

  it("refuses an envelope whose GCM tag was cut short", () => {
    // GCM authenticates a tag cut to 4 bytes: a 1 in 2^32 forgery per try, not 2^128. Only the full tag may pass.
    const sealed = encryptJson({ api_key: "s3cr3t-value" }, "car_1");
    const [version, iv, tag, body] = sealed.split(".");
    const short = [version, iv, Buffer.from(tag!, "base64url").subarray(0, 4).toString("base64url"), body].join(".");
    expect(() => decryptJson(short, "car_1")).toThrow(/envelope/);
    const shortIv = [version, Buffer.from(iv!, "base64url").subarray(0, 8).toString("base64url"), tag, body].join(".");
    expect(() => decryptJson(shortIv, "car_1")).toThrow(/envelope/);
    expect(decryptJson(sealed, "car_1")).toEqual({ api_key: "s3cr3t-value" });
  });
});
