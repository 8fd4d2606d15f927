import "server-only";
import { eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { batchMappings } from "@/lib/db/schema";
import type { BatchMapping, BatchMappingPut } from "@/lib/schemas/batch";
import { formatTimestamp } from "@/lib/timestamp";

/** GET /v1/batches/mapping: the organization's saved column mapping, empty before the first save. */
export async function getMappingTemplate(ctx: DomainContext): Promise<BatchMapping> {
  const [row] = await ctx.db.select().from(batchMappings).where(eq(batchMappings.orgId, ctx.org.id));
  return row ? { mapping: row.mapping, updated_at: formatTimestamp(row.updatedAt) } : { mapping: {}, updated_at: null };
}

/** PUT /v1/batches/mapping: replaces the organization's saved mapping whole (a template, not a record worth auditing). */
export async function saveMappingTemplate(ctx: DomainContext, input: BatchMappingPut): Promise<BatchMapping> {
  const mapping = input.mapping as Record<string, string>;
  const now = new Date();
  const [row] = await ctx.db
    .insert(batchMappings)
    .values({ orgId: ctx.org.id, mapping, updatedAt: now })
    .onConflictDoUpdate({ target: batchMappings.orgId, set: { mapping, updatedAt: now } })
    .returning();
  return { mapping: row!.mapping, updated_at: formatTimestamp(row!.updatedAt) };
}
