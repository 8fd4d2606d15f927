import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

// The embedded default with no ENCRYPTION_KEY: the key is generated once into the data folder and reused.
delete process.env.DATABASE_URL;
delete process.env.ENCRYPTION_KEY;
const dataDir = mkdtempSync(join(tmpdir(), "shipwell-key-"));
process.env.DATA_DIR = dataDir;

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("embedded encryption key", () => {
  it("is generated into the data folder, private to its owner, and reused after a restart", async () => {
    const first = await import("@/lib/connections/crypto");
    const sealed = first.encryptJson({ secret: "s" }, "car_x");
    const file = join(dataDir, "encryption.key");
    expect(readFileSync(file, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    vi.resetModules(); // a new process: the key is read back from the folder
    const second = await import("@/lib/connections/crypto");
    expect(second.decryptJson(sealed, "car_x")).toEqual({ secret: "s" });
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
