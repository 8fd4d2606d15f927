import { and, asc, eq } from "drizzle-orm";
import { carrierConnections } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { getAdapter } from "@/lib/carriers/registry";
import type { Capability } from "@/lib/carriers/types";
import { CarrierNotFoundError, ValidationError } from "@/lib/errors";
import type { ConnectionRow } from "./present";

const usable = (row: ConnectionRow, capability: Capability) =>
  row.active && (getAdapter(row.carrierName)?.capabilities.includes(capability) ?? false);

/**
 * CONTRACT §4: `carrier_ids` entries match a connection's carrier_id or its car_ id; absent or empty means every
 * active connection of the organization that can do the operation. A value that matches nothing is a validation
 * error; named connections that are inactive or cannot do the operation leave nothing to call: carrier_not_found.
 */
export async function selectConnections(
  db: DbOrTx,
  orgId: string,
  carrierIds: string[] | undefined,
  capability: Capability,
): Promise<ConnectionRow[]> {
  const rows = await db
    .select()
    .from(carrierConnections)
    .where(eq(carrierConnections.orgId, orgId))
    .orderBy(asc(carrierConnections.createdAt), asc(carrierConnections.id));
  let chosen: ConnectionRow[];
  if (!carrierIds || carrierIds.length === 0) {
    chosen = rows;
  } else {
    const problems = carrierIds.flatMap((value, i) =>
      rows.some((r) => r.carrierId === value || r.id === value)
        ? []
        : [{ message: `matches no carrier connection (${value})`, field: `carrier_ids[${i}]` }],
    );
    if (problems.length > 0) throw new ValidationError(problems);
    chosen = rows.filter((r) => carrierIds.includes(r.carrierId) || carrierIds.includes(r.id));
  }
  const result = chosen.filter((r) => usable(r, capability));
  if (result.length === 0) {
    throw new CarrierNotFoundError(
      carrierIds?.length
        ? `None of the selected carrier connections is active and able to do ${capability}.`
        : `No active carrier connection is able to do ${capability}.`,
    );
  }
  return result;
}

/** The organization's active connection for a carrier name (`carrier_id` narrows it), oldest first. */
export async function connectionForCarrier(
  db: DbOrTx,
  orgId: string,
  carrierName: string,
  capability: Capability,
  carrierId?: string,
): Promise<ConnectionRow> {
  const rows = await db
    .select()
    .from(carrierConnections)
    .where(and(eq(carrierConnections.orgId, orgId), eq(carrierConnections.carrierName, carrierName)))
    .orderBy(asc(carrierConnections.createdAt), asc(carrierConnections.id));
  const match = rows.find(
    (r) => usable(r, capability) && (!carrierId || r.carrierId === carrierId || r.id === carrierId),
  );
  if (!match) {
    throw new CarrierNotFoundError(
      `No active ${carrierName} connection${carrierId ? ` matching ${carrierId}` : ""} is able to do ${capability}.`,
    );
  }
  return match;
}

/** The connection a rate was quoted by (its carrier_ref), if it is the organization's and can do the operation. */
export async function connectionById(
  db: DbOrTx,
  orgId: string,
  id: string,
  capability: Capability,
): Promise<ConnectionRow> {
  const [row] = await db
    .select()
    .from(carrierConnections)
    .where(and(eq(carrierConnections.orgId, orgId), eq(carrierConnections.id, id)));
  if (!row || !usable(row, capability)) {
    throw new CarrierNotFoundError(`Carrier connection ${id} is not an active connection able to do ${capability}.`);
  }
  return row;
}
