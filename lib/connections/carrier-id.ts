import "server-only";
import { and, eq, ne, or, type Column } from "drizzle-orm";
import { carrierConnections } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { ValidationError } from "@/lib/errors";

const UNIQUE_VIOLATION = "23505";
const taken = () => new ValidationError("is already used by another connection", "carrier_id");

/**
 * `carrier_id` is unique per organization. The read gives a clean answer in the common case; the unique index
 * decides races, and `withUniqueCarrierId` turns its violation into the same answer.
 */
export async function assertCarrierIdFree(db: DbOrTx, orgId: string, carrierId: string, exceptId?: string) {
  const rows = await db
    .select({ id: carrierConnections.id })
    .from(carrierConnections)
    .where(
      and(
        eq(carrierConnections.orgId, orgId),
        eq(carrierConnections.carrierId, carrierId),
        exceptId ? ne(carrierConnections.id, exceptId) : undefined,
      ),
    );
  if (rows.length > 0) throw taken();
}

export async function withUniqueCarrierId<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === UNIQUE_VIOLATION) throw taken();
    throw err;
  }
}

/**
 * A `?carrier_id=` filter over stored records: the connection's friendly carrier_id as the record kept it, or its
 * `car_` id (docs/api.md, "Carrier connections").
 */
export const connectionFilter = (value: string, carrierId: Column, connectionId: Column) =>
  or(eq(carrierId, value), eq(connectionId, value));
