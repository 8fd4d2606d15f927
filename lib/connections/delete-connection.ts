import "server-only";
import { and, eq } from "drizzle-orm";
import { carrierConnections, carrierPacing } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { forgetOrgConnections } from "./cache";
import { findConnectionRow } from "./find-connection";
import { batchPaceKey } from "./pace";
import { presentConnection } from "./present";

export async function deleteConnection({ ctx, id }: { ctx: DomainContext; id: string }) {
  const row = await findConnectionRow(ctx.db, ctx.org.id, id);
  await withTransaction(ctx, async (tx) => {
    const gone = await tx.db
      .delete(carrierConnections)
      .where(and(eq(carrierConnections.orgId, ctx.org.id), eq(carrierConnections.id, id)))
      .returning({ id: carrierConnections.id });
    // Deleted by a concurrent request meanwhile: that one is recorded.
    if (gone.length > 0) {
      await tx.db.delete(carrierPacing).where(eq(carrierPacing.key, batchPaceKey(id)));
      await recordAudit(tx, {
        action: "connection.deleted",
        resourceId: id,
        summary: { carrier: row.carrierName, carrier_id: row.carrierId, test_mode: row.testMode },
      });
    }
  });
  forgetOrgConnections(ctx.org.id);
  return presentConnection(row);
}
