import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { runMigrations } from "@/lib/db/migrate";
import journal from "@/drizzle/meta/_journal.json";

// Instances racing to migrate is a Postgres concern (PGlite is one process by construction).
const adminUrl = process.env.DATABASE_URL;
const name = `shipwell_migrate_${randomBytes(6).toString("hex")}`;
const targetUrl = adminUrl ? adminUrl.replace(/\/[^/]*$/, `/${name}`) : "";

afterAll(async () => {
  if (!adminUrl) return;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
});

describe.skipIf(!adminUrl)("migrations on Postgres", () => {
  it("lets several instances start at once: one migrates, the others wait and find nothing to do", async () => {
    const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    await admin.end();

    await Promise.all([1, 2, 3, 4].map(() => runMigrations({ engine: "postgres", url: targetUrl })));

    const sql = postgres(targetUrl, { max: 1, onnotice: () => {} });
    const applied = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    const tables = await sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`;
    await sql.end();
    expect(applied[0]!.n).toBe(journal.entries.length);
    expect(tables.map((t) => t.table_name)).toEqual([
      "accounts",
      "address_verifications",
      "addresses",
      "api_keys",
      "audit_events",
      "batch_mappings",
      "batch_rows",
      "batches",
      "carrier_connections",
      "carrier_ledger",
      "carrier_pacing",
      "events",
      "idempotency_keys",
      "invitations",
      "labels",
      "memberships",
      "organization_settings",
      "organizations",
      "parcel_presets",
      "parcels",
      "rate_limits",
      "rates",
      "saved_addresses",
      "sessions",
      "shipment_documents",
      "shipments",
      "trackers",
      "tracking_events",
      "users",
      "verifications",
      "webhook_attempts",
      "webhook_deliveries",
      "webhook_endpoints",
    ]);
  });
});
