import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { parcelPresets } from "@/lib/db/schema";
import type { ParcelPreset } from "@/lib/schemas/parcel-preset";
import { findParcelPreset } from "./get-parcel-preset";
import { presentParcelPreset } from "./rows";

/** DELETE /v1/parcel_presets/{id}: answers the preset as it was. Shipments keep their own parcels. */
export async function deleteParcelPreset({ ctx, id }: { ctx: DomainContext; id: string }): Promise<ParcelPreset> {
  return withTransaction(ctx, async (txCtx) => {
    const row = await findParcelPreset(txCtx.db, ctx.org.id, id, true);
    await txCtx.db.delete(parcelPresets).where(and(eq(parcelPresets.orgId, ctx.org.id), eq(parcelPresets.id, id)));
    await recordAudit(txCtx, {
      action: "parcel_preset.deleted",
      resourceId: id,
      summary: { is_default: row.isDefault },
    });
    return presentParcelPreset(row);
  });
}
