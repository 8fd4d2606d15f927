import "server-only";
import { and, count, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { newId } from "@/lib/db/ids";
import { parcelPresets } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { StateConflictError } from "@/lib/errors";
import { queueOnOrganization } from "@/lib/orgs/queue-on-organization";
import type { ParcelPreset, ParcelPresetCreate } from "@/lib/schemas/parcel-preset";
import { parcelPresetValues, presentParcelPreset } from "./rows";

/** A picker of boxes, not a catalogue: more than this is a list nobody scrolls. */
export const MAX_PARCEL_PRESETS = 100;

/** Takes the default off whichever preset has it (one per organization: a unique index holds it). */
export async function clearDefaultPreset(db: DbOrTx, orgId: string) {
  await db
    .update(parcelPresets)
    .set({ isDefault: false })
    .where(and(eq(parcelPresets.orgId, orgId), eq(parcelPresets.isDefault, true)));
}

/** POST /v1/parcel_presets */
export async function createParcelPreset({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: ParcelPresetCreate;
}): Promise<ParcelPreset> {
  return withTransaction(ctx, async (txCtx) => {
    // The organization's row is the lock two creates queue on, so the count below cannot be passed by a race.
    await queueOnOrganization(txCtx.db, ctx.org.id);
    const [held] = await txCtx.db.select({ n: count() }).from(parcelPresets).where(eq(parcelPresets.orgId, ctx.org.id));
    if ((held?.n ?? 0) >= MAX_PARCEL_PRESETS) {
      throw new StateConflictError(`An organization keeps at most ${MAX_PARCEL_PRESETS} parcel presets.`);
    }
    if (input.is_default) await clearDefaultPreset(txCtx.db, ctx.org.id);
    const [row] = await txCtx.db
      .insert(parcelPresets)
      .values({
        id: newId("parcel_preset"),
        orgId: ctx.org.id,
        isDefault: input.is_default,
        ...parcelPresetValues(input),
      })
      .returning();
    await recordAudit(txCtx, {
      action: "parcel_preset.created",
      resourceId: row!.id,
      summary: { is_default: row!.isDefault },
    });
    return presentParcelPreset(row!);
  });
}
