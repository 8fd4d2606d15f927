import "server-only";
import { eq } from "drizzle-orm";
import { forOrganization, withTransaction, type SystemContext } from "@/lib/context";
import { organizations } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { forgetOrgConnections } from "@/lib/connections/cache";
import { createConnection } from "@/lib/connections/create-connection";

/** Every organization starts with an active sandbox connection in test mode, so everything works offline at once. */
async function withSandbox(ctx: SystemContext, values: typeof organizations.$inferInsert) {
  const org = await withTransaction(ctx, async (tx) => {
    const inserted = await tx.db.insert(organizations).values(values).onConflictDoNothing().returning();
    const org = inserted[0];
    if (!org) return null;
    await createConnection({
      ctx: forOrganization(tx, org.id),
      input: {
        carrier_name: "sandbox",
        carrier_id: "sandbox",
        display_name: "Sandbox",
        test_mode: true,
        active: true,
        credentials: {},
        config: {},
      },
    });
    return org;
  });
  // The connection was written in the transaction: a read between that write and the commit could have cached none.
  if (org) forgetOrgConnections(org.id);
  return org;
}

export async function createOrganization({ ctx, name }: { ctx: SystemContext; name: string }) {
  const trimmed = name.trim();
  if (!trimmed) throw new Error("An organization needs a name.");
  const org = await withSandbox(ctx, { id: newId("org"), name: trimmed });
  if (!org) throw new Error("Could not create the organization.");
  return org;
}

/** The organization BOOTSTRAP_API_KEY and the CLI default to; created on the first start of an empty database. */
export async function ensureDefaultOrganization({ ctx }: { ctx: SystemContext }) {
  const findDefault = () => ctx.db.select().from(organizations).where(eq(organizations.isDefault, true));
  const [existing] = await findDefault();
  if (existing) return { org: existing, created: false };
  const created = await withSandbox(ctx, { id: newId("org"), name: "Default organization", isDefault: true });
  if (created) return { org: created, created: true };
  // Another instance created it between our read and our insert.
  const [winner] = await findDefault();
  if (!winner) throw new Error("The default organization could not be created.");
  return { org: winner, created: false };
}
