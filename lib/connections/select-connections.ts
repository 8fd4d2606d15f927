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

/**
 * docs/api.md, "Carrier connections": `carrier_ids` entries match a connection's carrier_id or its car_ id; absent
 * or empty means every active connection of the organization that can do the operation. A value that matches nothing
 * is a validation error; named connections that are inactive or cannot do the operation leave nothing to call:
 * carrier_not_found.
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
  const rows = await orgConnections(ctx.db, ctx.org.id);
  let chosen: ConnectionRow[];
  if (!carrierIds || carrierIds.length === 0) {
    chosen = rows;
  } else {
    const problems = carrierIds.flatMap((value, i) =>
      rows.some((r) => r.carrierId === value || r.id === value)
        ? []
        : [{ message: `matches no carrier connection (${excerpt(value)})`, field: `carrier_ids[${i}]` }],
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
    (r) =>
      r.carrierName === carrierName &&
      usable(r, capability) &&
      (!carrierId || r.carrierId === carrierId || r.id === carrierId),
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
