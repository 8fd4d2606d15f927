import "server-only";
import { carrierConnections } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { ConnectionCreate } from "@/lib/schemas/connection";
import { forgetOrgConnections } from "./cache";
import { encryptJson } from "./crypto";
import { presentConnection } from "./present";
import { validateCarrierSettings } from "./validate";
import { assertCarrierIdFree, withUniqueCarrierId } from "./carrier-id";

export async function createConnection({ ctx, input }: { ctx: DomainContext; input: ConnectionCreate }) {
  const orgId = ctx.org.id;
  const settings = validateCarrierSettings(input.carrier_name, input);
  await assertCarrierIdFree(ctx.db, orgId, input.carrier_id);
  const id = newId("connection");
  const credentials = settings.credentials ?? {};
  const row = await withUniqueCarrierId(() =>
    withTransaction(ctx, async (tx) => {
      const [inserted] = await tx.db
        .insert(carrierConnections)
        .values({
          id,
          orgId,
          carrierName: input.carrier_name,
          carrierId: input.carrier_id,
          displayName: input.display_name ?? getAdapter(input.carrier_name)?.display_name ?? input.carrier_name,
          testMode: input.test_mode,
          active: input.active,
          config: settings.config ?? {},
          credentialsEncrypted: Object.keys(credentials).length > 0 ? encryptJson(credentials, id) : null,
        })
        .returning();
      await recordAudit(tx, {
        action: "connection.created",
        resourceId: id,
        summary: {
          carrier: input.carrier_name,
          carrier_id: input.carrier_id,
          test_mode: input.test_mode,
          active: input.active,
          credentials: Object.keys(credentials).length > 0,
        },
      });
      return inserted!;
    }),
  );
  forgetOrgConnections(orgId);
  return presentConnection(row);
}
