import "server-only";
import { eq } from "drizzle-orm";
import { changedFields, recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { batchMappings } from "@/lib/db/schema";
import type { BatchMapping, BatchMappingPut } from "@/lib/schemas/batch";
import { formatTimestamp } from "@/lib/timestamp";

/** GET /v1/batches/mapping: the organization's saved column mapping, empty before the first save. */
export async function getMappingTemplate(ctx: DomainContext): Promise<BatchMapping> {
  const [row] = await ctx.db.select().from(batchMappings).where(eq(batchMappings.orgId, ctx.org.id));
  return row ? { mapping: row.mapping, updated_at: formatTimestamp(row.updatedAt) } : { mapping: {}, updated_at: null };
}

/**
 * PUT /v1/batches/mapping: replaces the organization's saved mapping whole. It decides which CSV column becomes which
 * field of every later batch's labels, so it is recorded (`batch_mapping.updated`, the organization's id): the fields
 * mapped, not the clients' column names.
 */
export async function saveMappingTemplate(ctx: DomainContext, input: BatchMappingPut): Promise<BatchMapping> {
  const mapping = input.mapping as Record<string, string>;
  return withTransaction(ctx, async (tx) => {
    const now = new Date();
    const [row] = await tx.db
      .insert(batchMappings)
      .values({ orgId: ctx.org.id, mapping, updatedAt: now })
      .onConflictDoUpdate({ target: batchMappings.orgId, set: { mapping, updatedAt: now } })
      .returning();
    await recordAudit(
      tx,
      { action: "batch_mapping.updated", resourceId: ctx.org.id, summary: { fields: changedFields(mapping) } },
      now,
    );
    return { mapping: row!.mapping, updated_at: formatTimestamp(row!.updatedAt) };
  });
}
