import { createDecipheriv } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

// The embedded default with no ENCRYPTION_KEY: the key is generated once into the data folder and reused.
delete process.env.DATABASE_URL;
delete process.env.ENCRYPTION_KEY;
const dataDir = mkdtempSync(join(tmpdir(), "shipwell-key-"));
process.env.DATA_DIR = dataDir;

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("embedded encryption key", () => {
  it("is generated into the data folder, private to its owner, and reused after a restart", async () => {
    vi.resetModules(); // whatever ran before, this is a process started with no key
    const first = await import("@/lib/connections/crypto");
    const sealed = first.encryptJson({ secret: "s" }, "car_x");
    const file = join(dataDir, "encryption.key");
    expect(readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}\n$/); // one line, as `cat` shows it
    expect(statSync(file).mode & 0o777).toBe(0o600);

    vi.resetModules(); // a new process: the key is read back from the folder
    const second = await import("@/lib/connections/crypto");
    expect(second.decryptJson(sealed, "car_x")).toEqual({ secret: "s" });
  });

  it("is never overwritten when another process wrote it at the same moment: this process then uses that key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shipwell-key-race-"));
    const file = join(dir, "encryption.key");
    const theirs = "ab".repeat(32);
    // The other process writes its key after this one saw no file, before this one writes its own.
    let checked = false;
    vi.doMock("node:fs", async (importOriginal) => {
      const fs = await importOriginal<typeof import("node:fs")>();
      return {
        ...fs,
        existsSync: (path: string) => {
          if (path !== file || checked) return fs.existsSync(path);
          checked = true;
          writeFileSync(file, `${theirs}\n`);
          return false;
        },
      };
    });
    try {
      vi.resetModules();
      process.env.DATA_DIR = dir;
      const crypto = await import("@/lib/connections/crypto");
      expect(() => crypto.encryptJson({}, "car_1")).toThrow(/EEXIST/); // the loser fails once, sealing nothing
      expect(readFileSync(file, "utf8")).toBe(`${theirs}\n`);
      const sealed = crypto.encryptJson({ secret: "s" }, "car_1");
      vi.resetModules();
      process.env.ENCRYPTION_KEY = theirs;
      expect((await import("@/lib/connections/crypto")).decryptJson(sealed, "car_1")).toEqual({ secret: "s" });
    } finally {
      vi.doUnmock("node:fs");
      delete process.env.ENCRYPTION_KEY;
      process.env.DATA_DIR = dataDir;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is required when the database is Postgres", async () => {
    vi.resetModules();
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:5432/none";
    const { env, resetEnvCache } = await import("@/lib/env");
    resetEnvCache();
    expect(() => env()).toThrow(/ENCRYPTION_KEY: is required with DATABASE_URL/);
    delete process.env.DATABASE_URL;
    resetEnvCache();
  });
});

describe("ENCRYPTION_KEY", () => {
  const K1 = "0123456789abcdef".repeat(4);
  const K2 = "fedcba9876543210".repeat(4);
  afterEach(() => {
    delete process.env.ENCRYPTION_KEY;
    process.env.DATA_DIR = dataDir;
  });

  /** The crypto module as a process started with `key` (or none) has it. */
  async function startedWith(key: string | undefined, dataDir = process.env.DATA_DIR) {
    vi.resetModules();
    if (key === undefined) delete process.env.ENCRYPTION_KEY;
    else process.env.ENCRYPTION_KEY = key;
    process.env.DATA_DIR = dataDir;
    return import("@/lib/connections/crypto");
  }

  /** Opens an envelope with `key` directly, as the documented format says: v1.<iv>.<tag>.<ciphertext>, AAD = row id. */
  function openWith(key: Buffer, envelope: string, aad: string): unknown {
    const [, iv, tag, body] = envelope.split(".");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv!, "base64url"));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag!, "base64url"));
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body!, "base64url")), decipher.final()]).toString());
  }

  it("is the key credentials are sealed with: each key's envelope opens with that key only", async () => {
    const one = await startedWith(K1);
    const sealed = one.encryptJson({ secret: "s" }, "car_1");
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(openWith(Buffer.from(K1, "hex"), sealed, "car_1")).toEqual({ secret: "s" });
    const two = await startedWith(K2);
    const sealedByTwo = two.encryptJson({ secret: "s" }, "car_1");
    expect(openWith(Buffer.from(K2, "hex"), sealedByTwo, "car_1")).toEqual({ secret: "s" });
    expect(() => openWith(Buffer.from(K1, "hex"), sealedByTwo, "car_1")).toThrow();
  });

  it("fails closed with a clear error when it is not the key the credentials were sealed with", async () => {
    const sealed = (await startedWith(K1)).encryptJson({ secret: "s" }, "car_1");
    const wrong = await startedWith(K2);
    let opened: unknown = "nothing";
    expect(() => (opened = wrong.decryptJson(sealed, "car_1"))).toThrow(
      /^Stored credentials could not be decrypted: ENCRYPTION_KEY is not the key they were encrypted with/,
    );
    expect(opened).toBe("nothing");
    expect((await startedWith(K1)).decryptJson(sealed, "car_1")).toEqual({ secret: "s" });
  });

  it("is read as 64 hex characters (either case) or base64 of 32 bytes, spaces around it ignored", async () => {
    const sealed = (await startedWith(K1)).encryptJson([1, 2], "car_1");
    for (const same of [K1.toUpperCase(), Buffer.from(K1, "hex").toString("base64"), ` ${K1}\n`])
      expect((await startedWith(same)).decryptJson(sealed, "car_1"), same).toEqual([1, 2]);
  });

  it("is refused unless it is 32 bytes", async () => {
    for (const bad of [K1.slice(0, 62), `${K1}00`, "g".repeat(64), Buffer.alloc(31).toString("base64")]) {
      const crypto = await startedWith(bad);
      expect(() => crypto.encryptJson({}, "car_1"), bad).toThrow(
        "ENCRYPTION_KEY must be 32 bytes, given as 64 hex characters or base64.",
      );
    }
  });

  it("derives the session-cookie secret: fixed per key and purpose, another for another purpose or key", async () => {
    const one = await startedWith(K1);
    const secret = one.derivedSecret("session cookies");
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(secret).not.toContain(K1);
    expect(one.derivedSecret("session cookies")).toBe(secret);
    expect(one.derivedSecret("other")).not.toBe(secret);
    expect((await startedWith(K1)).derivedSecret("session cookies")).toBe(secret);
    expect((await startedWith(K2)).derivedSecret("session cookies")).not.toBe(secret);
  });

  it("is not needed in memory: each process makes its own, so nothing sealed outlives it", async () => {
    const first = await startedWith(undefined, "memory://");
    const sealed = first.encryptJson({ s: 1 }, "car_1");
    expect(first.decryptJson(sealed, "car_1")).toEqual({ s: 1 });
    const second = await startedWith(undefined, "memory://");
    expect(() => second.decryptJson(sealed, "car_1")).toThrow(/could not be decrypted/);
  });

  it("refuses an envelope that is not v1 with all its parts", async () => {
    const crypto = await startedWith(K1);
    const [, iv, tag, body] = crypto.encryptJson({}, "car_1").split(".");
    for (const bad of [`v2.${iv}.${tag}.${body}`, `v1..${tag}.${body}`, `v1.${iv}..${body}`, `v1.${iv}.${tag}`])
      expect(() => crypto.decryptJson(bad, "car_1"), bad).toThrow("Unrecognised credentials envelope.");
  });
});
