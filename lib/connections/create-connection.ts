import { and, eq } from "drizzle-orm";
import { carrierConnections } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { DbOrTx } from "@/lib/db/tx";
import type { DomainContext } from "@/lib/context";
import { ValidationError } from "@/lib/errors";
import { getAdapter } from "@/lib/carriers/registry";
import type { ConnectionCreate } from "@/lib/schemas/connection";
import { encryptJson } from "./crypto";
import { presentConnection } from "./present";
import { validateCarrierSettings } from "./validate";

const UNIQUE_VIOLATION = "23505";

export async function insertConnection(db: DbOrTx, orgId: string, input: ConnectionCreate) {
  const settings = validateCarrierSettings(input.carrier_name, input);
  const taken = await db
    .select({ id: carrierConnections.id })
    .from(carrierConnections)
    .where(and(eq(carrierConnections.orgId, orgId), eq(carrierConnections.carrierId, input.carrier_id)));
  if (taken.length > 0) throw new ValidationError("is already used by another connection", "carrier_id");
  const id = newId("connection");
  const credentials = settings.credentials ?? {};
  try {
    const [row] = await db
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
    return row!;
  } catch (err) {
    // Two concurrent creations with one carrier_id: the unique index decides, the loser gets the same answer.
    if ((err as { code?: string }).code === UNIQUE_VIOLATION || (err as { cause?: { code?: string } }).cause?.code === UNIQUE_VIOLATION) {
      throw new ValidationError("is already used by another connection", "carrier_id");
    }
    throw err;
  }
}

export async function createConnection({ ctx, input }: { ctx: DomainContext; input: ConnectionCreate }) {
  return presentConnection(await insertConnection(ctx.db, ctx.org.id, input));
}
