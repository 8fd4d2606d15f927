import "server-only";
import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { getAdapter } from "@/lib/carriers/registry";
import { orgConnections } from "@/lib/connections/cache";
import { namesConnection } from "@/lib/connections/select-connections";
import { withTransaction, type DomainContext } from "@/lib/context";
import { organizationSettings } from "@/lib/db/schema";
import { ValidationError } from "@/lib/errors";
import type { RateRule, RateRulePut } from "@/lib/schemas/parcel-preset";
import { formatTimestamp } from "@/lib/timestamp";
import { excerpt } from "@/lib/validation";

const CHEAPEST = { kind: "cheapest", carrier_id: null, service: null } as const;

/** GET /v1/rate_rule: how the create-label form preselects a rate; cheapest until an owner or admin saves another. */
export async function getRateRule(ctx: Pick<DomainContext, "db" | "org">): Promise<RateRule> {
  const [row] = await ctx.db.select().from(organizationSettings).where(eq(organizationSettings.orgId, ctx.org.id));
  return row?.rateRule
    ? { ...row.rateRule, updated_at: formatTimestamp(row.updatedAt) }
    : { ...CHEAPEST, updated_at: null };
}

/**
 * A fixed rule's connection and service as rates name them: the organization's connection (by its carrier_id or
 * car_ id, kept as the carrier_id a rate carries) and a service its carrier sells (kept as the carrier writes it).
 * Anything else could never match a rate, and the form would fall back to the cheapest on every label.
 */
async function fixedChoice(ctx: DomainContext, carrierId: string, service: string) {
  const row = (await orgConnections(ctx.db, ctx.org.id)).find((r) => namesConnection(r, carrierId));
  if (!row) throw new ValidationError(`matches no carrier connection (${excerpt(carrierId)})`, "carrier_id");
  const sold = getAdapter(row.carrierName)?.services.find((s) => s.code.toUpperCase() === service.toUpperCase());
  if (!sold) throw new ValidationError(`is not a service of ${row.carrierName} (${excerpt(service)})`, "service");
  return { carrier_id: row.carrierId, service: sold.code };
}

/** PUT /v1/rate_rule: replaces the rule whole, recorded in the audit log. */
export async function saveRateRule(ctx: DomainContext, input: RateRulePut): Promise<RateRule> {
  const fixed = input.kind === "fixed" ? await fixedChoice(ctx, input.carrier_id!, input.service!) : null;
  return withTransaction(ctx, async (txCtx) => {
    const now = new Date();
    const rateRule = { kind: input.kind, carrier_id: fixed?.carrier_id ?? null, service: fixed?.service ?? null };
    const [row] = await txCtx.db
      .insert(organizationSettings)
      .values({ orgId: ctx.org.id, rateRule, updatedAt: now })
      .onConflictDoUpdate({ target: organizationSettings.orgId, set: { rateRule, updatedAt: now } })
      .returning();
    await recordAudit(txCtx, {
      action: "rate_rule.updated",
      resourceId: ctx.org.id,
      summary: { kind: rateRule.kind, carrier_id: rateRule.carrier_id, service: rateRule.service },
    });
    return { ...row!.rateRule!, updated_at: formatTimestamp(row!.updatedAt) };
  });
}
