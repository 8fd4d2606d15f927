import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { addresses, shipments } from "@/lib/db/schema";

/** What the trackers list shows of a tracker's shipment: whom it goes to and the clerk's own reference. */
export interface TrackerShipment {
  recipient: string | null;
  place: string;
  reference: string | null;
}

/**
 * The shipments behind a page of trackers, by shipment id, in one query scoped to the organization. A tracker added
 * by number (no shipment) has no entry; the list shows what the carrier gives and nothing invented.
 */
export async function trackerShipments(
  ctx: DomainContext,
  shipmentIds: (string | null)[],
): Promise<Map<string, TrackerShipment>> {
  const ids = [...new Set(shipmentIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({
      id: shipments.id,
      reference: shipments.reference,
      personName: addresses.personName,
      companyName: addresses.companyName,
      city: addresses.city,
      stateCode: addresses.stateCode,
      countryCode: addresses.countryCode,
    })
    .from(shipments)
    .innerJoin(addresses, and(eq(addresses.id, shipments.recipientId), eq(addresses.orgId, shipments.orgId)))
    .where(and(eq(shipments.orgId, ctx.org.id), inArray(shipments.id, ids)));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        recipient: r.personName || r.companyName || null,
        place: [r.city, r.stateCode, r.countryCode].filter(Boolean).join(", "),
        reference: r.reference,
      },
    ]),
  );
}
