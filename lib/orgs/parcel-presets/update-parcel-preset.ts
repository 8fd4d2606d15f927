import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { parcelPresets } from "@/lib/db/schema";
import { queueOnOrganization } from "@/lib/orgs/queue-on-organization";
import type { ParcelPreset, ParcelPresetUpdate } from "@/lib/schemas/parcel-preset";
import { clearDefaultPreset } from "./create-parcel-preset";
import { findParcelPreset } from "./get-parcel-preset";
import { parcelPresetValues, presentParcelPreset } from "./rows";

/** PATCH /v1/parcel_presets/{id}: the fields given change, the others stay. */
export async function updateParcelPreset({
  ctx,
  id,
  input,
}: {
  ctx: DomainContext;
  id: string;
  input: ParcelPresetUpdate;
}): Promise<ParcelPreset> {
  return withTransaction(ctx, async (txCtx) => {
    // A new default queues behind another change of the default (create-parcel-preset.ts takes the same lock).
    if (input.is_default === true) await queueOnOrganization(txCtx.db, ctx.org.id);
    const current = presentParcelPreset(await findParcelPreset(txCtx.db, ctx.org.id, id, true));
    const { is_default, ...given } = input;
    const changed = Object.keys(given).filter((k) => given[k as keyof typeof given] !== undefined);
    // Nothing given, nothing changes: no write, no audit row (the audit log records changes).
    if (changed.length === 0 && is_default === undefined) return current;
    const fields = { ...current, ...Object.fromEntries(changed.map((k) => [k, given[k as keyof typeof given]])) };
    if (is_default === true && !current.is_default) await clearDefaultPreset(txCtx.db, ctx.org.id);
    const [row] = await txCtx.db
      .update(parcelPresets)
      .set({
        ...parcelPresetValues(fields),
        ...(is_default === undefined ? {} : { isDefault: is_default }),
        updatedAt: new Date(),
      })
      .where(and(eq(parcelPresets.orgId, ctx.org.id), eq(parcelPresets.id, id)))
      .returning();
    await recordAudit(txCtx, {
      action: "parcel_preset.updated",
      resourceId: id,
      summary: { fields: [...changed, ...(is_default === undefined ? [] : ["is_default"])] },
    });
    return presentParcelPreset(row!);
  });
}
