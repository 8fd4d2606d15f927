import "server-only";
import { and, eq } from "drizzle-orm";
import { carrierConnections } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";

/** Always scoped by organization: another organization's id is simply not found. */
export async function findConnectionRow(db: DbOrTx, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(carrierConnections)
    .where(and(eq(carrierConnections.orgId, orgId), eq(carrierConnections.id, id)));
  if (!row) throw new NotFoundError(`Carrier connection ${id} does not exist.`);
  return row;
}
