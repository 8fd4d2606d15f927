import "server-only";
import { eq } from "drizzle-orm";
import { organizations } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";

/**
 * Queues the transactions that change one of an organization's one-per-organization things (its default parcel
 * preset, its default ship-from, the preset cap's count) on its row, until the transaction ends: the second reads
 * what the first committed, so it takes the default off the row the first just gave it to.
 *
 * `NO KEY UPDATE`, not `UPDATE`: every audit row references the organization, and inserting one takes `KEY SHARE`
 * on its row, which `UPDATE` blocks. A change of a preset (its row locked, its audit row next) and a new default
 * (the organization's row locked, the old default's row next) would then wait on each other.
 */
export async function queueOnOrganization(db: DbOrTx, orgId: string): Promise<void> {
  await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for("no key update");
}
