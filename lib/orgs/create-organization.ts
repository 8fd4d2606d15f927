import { eq } from "drizzle-orm";
import { organizations } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { Db } from "@/lib/db/tx";
import { insertConnection } from "@/lib/connections/create-connection";

/** Every organization starts with an active sandbox connection in test mode, so everything works offline at once. */
async function withSandbox(db: Db, values: typeof organizations.$inferInsert) {
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(organizations).values(values).onConflictDoNothing().returning();
    const org = inserted[0];
    if (!org) return null;
    await insertConnection(tx, org.id, {
      carrier_name: "sandbox",
      carrier_id: "sandbox",
      display_name: "Sandbox",
      test_mode: true,
      active: true,
      credentials: {},
      config: {},
    });
    return org;
  });
}

export async function createOrganization(db: Db, input: { name: string }) {
  const name = input.name.trim();
  if (!name) throw new Error("An organization needs a name.");
  const org = await withSandbox(db, { id: newId("org"), name });
  if (!org) throw new Error("Could not create the organization.");
  return org;
}

/** The organization BOOTSTRAP_API_KEY and the CLI default to; created on the first start of an empty database. */
export async function ensureDefaultOrganization(db: Db) {
  const [existing] = await db.select().from(organizations).where(eq(organizations.isDefault, true));
  if (existing) return { org: existing, created: false };
  const created = await withSandbox(db, { id: newId("org"), name: "Default organization", isDefault: true });
  if (created) return { org: created, created: true };
  // Another instance created it between our read and our insert.
  const [winner] = await db.select().from(organizations).where(eq(organizations.isDefault, true));
  if (!winner) throw new Error("The default organization could not be created.");
  return { org: winner, created: false };
}
