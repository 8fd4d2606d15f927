import "server-only";
import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { organizationSettings } from "@/lib/db/schema";
import type { RateRule, RateRulePut } from "@/lib/schemas/parcel-preset";
import { formatTimestamp } from "@/lib/timestamp";

const CHEAPEST = { kind: "cheapest", carrier_id: null, service: null } as const;

/** GET /v1/rate_rule: how the create-label form preselects a rate; cheapest until an owner or admin saves another. */
export async function getRateRule(ctx: Pick<DomainContext, "db" | "org">): Promise<RateRule> {
  const [row] = await ctx.db.select().from(organizationSettings).where(eq(organizationSettings.orgId, ctx.org.id));
  return row?.rateRule
    ? { ...row.rateRule, updated_at: formatTimestamp(row.updatedAt) }
    : { ...CHEAPEST, updated_at: null };
}

/** PUT /v1/rate_rule: replaces the rule whole, recorded in the audit log. */
export async function saveRateRule(ctx: DomainContext, input: RateRulePut): Promise<RateRule> {
  return withTransaction(ctx, async (txCtx) => {
    const now = new Date();
    const rateRule = { kind: input.kind, carrier_id: input.carrier_id, service: input.service };
    const [row] = await txCtx.db
      .insert(organizationSettings)
      .values({ orgId: ctx.org.id, rateRule, updatedAt: now })
      .onConflictDoUpdate({ target: organizationSettings.orgId, set: { rateRule, updatedAt: now } })
      .returning();
    await recordAudit(txCtx, {
      action: "rate_rule.updated",
      resourceId: ctx.org.id,
      summary: { kind: input.kind, carrier_id: input.carrier_id, service: input.service },
    });
    return { ...row!.rateRule!, updated_at: formatTimestamp(row!.updatedAt) };
  });
}
