import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirInUseError, lockDataDir } from "./data-dir-lock";

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), "lock-"));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("data folder lock", () => {
  it("refuses a folder held by another live process", () => {
    const dir = fresh();
    writeFileSync(join(dir, "owner.pid"), String(process.ppid)); // the test runner's parent is alive
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
  });

  it("takes over a stale lock and releases it", () => {
    const dir = fresh();
    writeFileSync(join(dir, "owner.pid"), "999999999");
    const release = lockDataDir(dir);
    expect(existsSync(join(dir, "owner.pid"))).toBe(true);
    release();
    expect(existsSync(join(dir, "owner.pid"))).toBe(false);
  });
});
