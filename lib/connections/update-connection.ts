import "server-only";
import { and, eq } from "drizzle-orm";
import { carrierConnections } from "@/lib/db/schema";
import { changedFields, recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import type { ConnectionUpdate } from "@/lib/schemas/connection";
import { NotFoundError } from "@/lib/errors";
import { forgetOrgConnections } from "./cache";
import { encryptJson } from "./crypto";
import { findConnectionRow } from "./find-connection";
import { presentConnection } from "./present";
import { validateCarrierSettings } from "./validate";
import { assertCarrierIdFree, withUniqueCarrierId } from "./carrier-id";

/** PATCH semantics: absent keys stay; `credentials` and `config` are replaced whole when given. */
export async function updateConnection({
  ctx,
  id,
  input,
}: {
  ctx: DomainContext;
  id: string;
  input: ConnectionUpdate;
}) {
  const row = await findConnectionRow(ctx.db, ctx.org.id, id);
  const settings = validateCarrierSettings(row.carrierName, { credentials: input.credentials, config: input.config });
  if (input.carrier_id !== undefined && input.carrier_id !== row.carrierId) {
    await assertCarrierIdFree(ctx.db, ctx.org.id, input.carrier_id, id);
  }
  const credentials = settings.credentials;
  const [updated] = await withUniqueCarrierId(() =>
    withTransaction(ctx, async (tx) => {
      const written = await tx.db
        .update(carrierConnections)
        .set({
          carrierId: input.carrier_id,
          displayName: input.display_name,
          testMode: input.test_mode,
          active: input.active,
          config: settings.config,
          credentialsEncrypted:
            credentials === undefined
              ? undefined
              : Object.keys(credentials).length > 0
                ? encryptJson(credentials, id)
                : null,
          updatedAt: new Date(),
        })
        .where(and(eq(carrierConnections.orgId, ctx.org.id), eq(carrierConnections.id, id)))
        .returning();
      // Field names only: credentials and config may hold secrets, and a name is enough to say what changed.
      if (written.length > 0) {
        await recordAudit(tx, {
          action: "connection.updated",
          resourceId: id,
          summary: { fields: changedFields(input) },
        });
      }
      return written;
    }),
  );
  forgetOrgConnections(ctx.org.id);
  if (!updated) throw new NotFoundError(`Carrier connection ${id} does not exist.`); // deleted meanwhile
  return presentConnection(updated);
}
