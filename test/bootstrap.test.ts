import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GET } from "@/app/v1/connections/route";
import { closeDb } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { apiKeys, organizations } from "@/lib/db/schema";
import { ensureDefaultOrganization } from "@/lib/orgs/create-organization";
import { hashApiKey } from "@/lib/auth/api-keys";
import { bootstrap } from "@/lib/bootstrap";
import { call, systemCtx } from "./helpers";

// On PGlite this file uses a folder on disk, so a "restart" really reopens the same data.
const dataDir = process.env.DATABASE_URL ? null : mkdtempSync(join(tmpdir(), "shipwell-boot-"));
if (dataDir) process.env.DATA_DIR = dataDir;
delete process.env.SKIP_MIGRATIONS; // a fresh folder: migrated on first open
const bootstrapKey = "bootstrap-" + randomBytes(16).toString("hex");
process.env.BOOTSTRAP_API_KEY = bootstrapKey;

afterAll(async () => {
  await closeDb();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("default organization", () => {
  it("is created once even when several instances start at the same moment", async () => {
    const db = await getDb();
    const ctx = await systemCtx(db);
    const { org: previous } = await ensureDefaultOrganization({ ctx });
    // Start from a database with no default organization, then race five "instances" to create it.
    await db.update(organizations).set({ isDefault: false }).where(eq(organizations.id, previous.id));
    try {
      const results = await Promise.all([1, 2, 3, 4, 5].map(() => ensureDefaultOrganization({ ctx })));
      expect(new Set(results.map((r) => r.org.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const defaults = await db.select().from(organizations).where(eq(organizations.isDefault, true));
      expect(defaults).toHaveLength(1);
      await db.update(organizations).set({ isDefault: false }).where(eq(organizations.id, defaults[0]!.id));
    } finally {
      await db.update(organizations).set({ isDefault: true }).where(eq(organizations.id, previous.id));
    }
  });
});

describe("BOOTSTRAP_API_KEY", () => {
  it("works on first start, again after a restart, and is never duplicated", async () => {
    // Starting a process (the server, the command line) bootstraps the database it opens.
    const start = async () => bootstrap({ ctx: await systemCtx() });
    await start();
    const first = await call(GET, "GET", "/v1/connections", { key: bootstrapKey });
    expect(first.status).toBe(200);
    expect(first.body.results.some((c: { carrier_name: string }) => c.carrier_name === "sandbox")).toBe(true);

    await closeDb(); // restart
    await closeDb();
    await start();
    const again = await call(GET, "GET", "/v1/connections", { key: bootstrapKey });
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual(first.body.results);

    const db = await getDb();
    const rows = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hashApiKey(bootstrapKey)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.source).toBe("bootstrap");
    if (dataDir) {
      // An empty database that starts with BOOTSTRAP_API_KEY gets no generated key besides it.
      expect(await db.select().from(apiKeys)).toHaveLength(1);
    }
  });
});
