import "server-only";
import type { DomainContext } from "@/lib/context";
import type { ShipmentDocument } from "@/lib/schemas/shipment-document";
import { documentFacts, findShipmentRow } from "./load-shipments";
import { presentDocument } from "./present-document";

/**
 * GET /v1/shipments/{id}/documents: the papers the carrier sold with the label, without their bytes. A cancelled
 * shipment keeps them: an exporter keeps its invoices whatever became of the label.
 */
export async function listDocuments({ ctx, id }: { ctx: DomainContext; id: string }): Promise<ShipmentDocument[]> {
  await findShipmentRow(ctx.db, ctx.org.id, id);
  return (await documentFacts(ctx.db, ctx.org.id, [id])).map(presentDocument);
}
