import "server-only";
import type { DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { Capability } from "@/lib/carriers/types";
import { CarrierNotFoundError, ValidationError } from "@/lib/errors";
import { orgConnections } from "./cache";
import { excerpt } from "@/lib/validation";
import type { ConnectionRow } from "./present";

/**
 * Which of the organization's connections a carrier operation uses. Read through the short connection cache
 * (cache.ts): this is on the path of every rate, label and tracking request.
 */

const usable = (row: ConnectionRow, capability: Capability) =>
  row.active && (getAdapter(row.carrierName)?.capabilities.includes(capability) ?? false);

/** docs/api.md, "Carrier connections": a `carrier_ids` value names a connection by its carrier_id or its car_ id. */
export const namesConnection = (row: ConnectionRow, value: string) => row.carrierId === value || row.id === value;

/**
 * The connections `carrierIds` names, every one when it names none; a value that matches no connection is a 400 on
 * its entry (`carrier_ids[i]`), whatever the route.
 */
export function namedConnections(rows: ConnectionRow[], carrierIds: readonly string[] | undefined): ConnectionRow[] {
  if (!carrierIds || carrierIds.length === 0) return rows;
  const problems = carrierIds.flatMap((value, i) =>
    rows.some((r) => namesConnection(r, value))
      ? []
      : [{ message: `matches no carrier connection (${excerpt(value)})`, field: `carrier_ids[${i}]` }],
  );
  if (problems.length > 0) throw new ValidationError(problems);
  return rows.filter((r) => carrierIds.some((value) => namesConnection(r, value)));
}

/**
 * Absent or empty `carrier_ids` means every active connection of the organization that can do the operation; named
 * connections that are inactive or cannot do the operation leave nothing to call: carrier_not_found.
 */
export async function selectConnections({
  ctx,
  carrierIds,
  capability,
}: {
  ctx: DomainContext;
  carrierIds: string[] | undefined;
  capability: Capability;
}): Promise<ConnectionRow[]> {
  const chosen = namedConnections(await orgConnections(ctx.db, ctx.org.id), carrierIds);
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

/** The organization's active connection for a carrier name (`carrierId` narrows it), oldest first. */
export async function connectionForCarrier({
  ctx,
  carrierName,
  capability,
  carrierId,
}: {
  ctx: DomainContext;
  carrierName: string;
  capability: Capability;
  carrierId?: string;
}): Promise<ConnectionRow> {
  const rows = await orgConnections(ctx.db, ctx.org.id);
  const match = rows.find(
    (r) => r.carrierName === carrierName && usable(r, capability) && (!carrierId || namesConnection(r, carrierId)),
  );
  if (!match) {
    throw new CarrierNotFoundError(
      `No active ${excerpt(carrierName)} connection${carrierId ? ` matching ${excerpt(carrierId)}` : ""} is able to do ${capability}.`,
    );
  }
  return match;
}

/** The connection a rate was quoted by (its carrier_ref), if it is the organization's and can do the operation. */
export async function connectionById({
  ctx,
  id,
  capability,
}: {
  ctx: DomainContext;
  id: string;
  capability: Capability;
}): Promise<ConnectionRow> {
  const row = (await orgConnections(ctx.db, ctx.org.id)).find((r) => r.id === id);
  if (!row || !usable(row, capability)) {
    throw new CarrierNotFoundError(`Carrier connection ${id} is not an active connection able to do ${capability}.`);
  }
  return row;
}

/** One of the organization's connections, active or not (the one that bought a label, say); null when it is gone. */
export async function orgConnection({ ctx, id }: { ctx: DomainContext; id: string }): Promise<ConnectionRow | null> {
  return (await orgConnections(ctx.db, ctx.org.id)).find((r) => r.id === id) ?? null;
}
