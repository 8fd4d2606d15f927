import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// The CLI's data-folder behaviour is PGlite's; this file always runs embedded, in a folder of its own.
delete process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), "shipwell-cli-"));
process.env.DATA_DIR = dataDir;
delete process.env.SKIP_MIGRATIONS; // a fresh folder: the CLI migrates it

const exec = promisify(execFile);

async function cli(...args: string[]) {
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "info" } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  delete env.BOOTSTRAP_API_KEY;
  try {
    const { stdout, stderr } = await exec(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/cli.ts", ...args],
      {
        env,
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

afterAll(async () => {
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
  rmSync(dataDir, { recursive: true, force: true });
});

// One CLI session told in steps: they share the folder and what earlier steps printed (the first start's key, the
// organization, its keys), so they keep their order under --sequence.shuffle. Each step starts one or two child
// processes (tsx, then PGlite on disk; the first also runs initdb and every migration): on a busy machine that is
// more than the suite's 30 s per test, and a step cut off mid-way fails every step after it.
describe("CLI", { shuffle: false, timeout: 120_000 }, () => {
  let orgId = "";
  let key = "";
  let firstKey = "";

  it("prints the generated first key once, on the first start of an empty database", async () => {
    const first = await cli("keys", "list");
    expect(first.code).toBe(0);
    const match = first.stderr.match(/shown only this once: (shw_[A-Za-z0-9_-]{43})/);
    expect(match).not.toBeNull();
    firstKey = match![1]!;
    expect(first.stdout).toContain("First key");
    expect(first.stdout).not.toContain(firstKey);
    const second = await cli("keys", "list");
    expect(second.stderr).not.toContain("shown only this once");
    expect(second.stdout.trim().split("\n")).toHaveLength(2); // header + the one key
  });

  it("creates an organization and prints only its id", async () => {
    const res = await cli("orgs", "create", "--name", "Acme Shipping");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^org_[0-9a-f]{32}\n$/);
    orgId = res.stdout.trim();
  });

  it("creates a key for it and prints only the key; --api-version pins an older version", async () => {
    const res = await cli("keys", "create", "--name", "warehouse", "--org", orgId);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^shw_[A-Za-z0-9_-]{43}\n$/);
    key = res.stdout.trim();
    const legacy = await cli("keys", "create", "--name", "old shop", "--org", orgId, "--api-version", "2021-07");
    expect(legacy.code).toBe(0);
    const bad = await cli("keys", "create", "--name", "x", "--api-version", "2020-01");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--api-version must be one of: 2021-07, 2026-11");
  });

  it("fails clearly for an unknown organization, a missing name and an unknown command", async () => {
    const unknown = await cli("keys", "create", "--name", "x", "--org", "org_" + "0".repeat(32));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`Organization org_${"0".repeat(32)} does not exist.`);
    expect(unknown.stdout).toBe("");
    const noName = await cli("orgs", "create");
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain("needs --name");
    expect((await cli("keys", "frobnicate")).code).toBe(2);
  });

  it("the key authenticates as the new organization, and the CLI refuses while the server holds the folder", async () => {
    const { GET } = await import("@/app/v1/connections/route");
    const { call } = await import("./helpers");
    const res = await call(GET, "GET", "/v1/connections", { key });
    expect(res.status).toBe(200);
    expect(res.body.results[0].carrier_id).toBe("sandbox");
    expect((await call(GET, "GET", "/v1/connections", { key: firstKey })).status).toBe(200);

    const busy = await cli("keys", "list");
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/data folder .* is in use by another process \(pid \d+\)/);
  });

  it("revokes a key so it no longer authenticates", async () => {
    const { closeDb } = await import("@/lib/db/client");
    await closeDb();
    const listed = await cli("keys", "list", "--org", orgId);
    expect(listed.stdout).toMatch(/old shop .*2021-07/);
    const warehouse = listed.stdout.split("\n").find((line) => line.includes("warehouse"))!;
    const keyId = warehouse.match(/key_[0-9a-f]{32}/)![0];
    expect(listed.stdout).not.toContain(key);
    const revoked = await cli("keys", "revoke", keyId);
    expect(revoked.code).toBe(0);
    const { GET } = await import("@/app/v1/connections/route");
    const { call } = await import("./helpers");
    expect((await call(GET, "GET", "/v1/connections", { key })).status).toBe(401);
  });
});
