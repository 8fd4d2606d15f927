import "server-only";
import { and, eq } from "drizzle-orm";
import type { LabelType } from "@/lib/carriers/types";
import type { DomainContext } from "@/lib/context";
import { labels } from "@/lib/db/schema";

export interface LabelFacts {
  type: LabelType;
  /** When the label was bought: its file was recorded with the purchase. */
  purchasedAt: Date;
}

/**
 * What the dashboard says about a shipment's label without reading its bytes: the format and when it was bought
 * (the Shipment JSON has neither date). Null before purchase. Also answers for a voided label: it was bought.
 */
export async function getLabelFacts({ ctx, id }: { ctx: DomainContext; id: string }): Promise<LabelFacts | null> {
  const [row] = await ctx.db
    .select({ type: labels.type, createdAt: labels.createdAt })
    .from(labels)
    .where(and(eq(labels.orgId, ctx.org.id), eq(labels.shipmentId, id)));
  return row ? { type: row.type as LabelType, purchasedAt: row.createdAt } : null;
}
