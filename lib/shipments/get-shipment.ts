import "server-only";
import type { DomainContext } from "@/lib/context";
import type { Shipment } from "@/lib/schemas/shipment";
import { loadShipment } from "./load-shipments";
import { presentShipment } from "./present-shipment";

export async function getShipment({ ctx, id }: { ctx: DomainContext; id: string }): Promise<Shipment> {
  return presentShipment(await loadShipment(ctx.db, ctx.org.id, id));
}
