import "server-only";
import { and, asc, count, desc, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { parcelPresets } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";
import type { ParcelPreset, ParcelPresetListQuery } from "@/lib/schemas/parcel-preset";
import { presentParcelPreset, type ParcelPresetRow } from "./rows";

/** The organization's preset, locked for a change when `forUpdate`; another organization's is not found. */
export async function findParcelPreset(db: DbOrTx, orgId: string, id: string, forUpdate = false) {
  const query = db
    .select()
    .from(parcelPresets)
    .where(and(eq(parcelPresets.orgId, orgId), eq(parcelPresets.id, id)));
  const [row] = forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("The parcel preset does not exist.");
  return row as ParcelPresetRow;
}

/** GET /v1/parcel_presets/{id} */
export async function getParcelPreset({ ctx, id }: { ctx: DomainContext; id: string }): Promise<ParcelPreset> {
  return presentParcelPreset(await findParcelPreset(ctx.db, ctx.org.id, id));
}

/** GET /v1/parcel_presets: the default first, then by name (the order the create-label form offers them in). */
export async function listParcelPresets({
  ctx,
  query,
}: {
  ctx: DomainContext;
  query: ParcelPresetListQuery;
}): Promise<{ count: number; results: ParcelPreset[] }> {
  const where = eq(parcelPresets.orgId, ctx.org.id);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(parcelPresets)
      .where(where)
      .orderBy(desc(parcelPresets.isDefault), asc(parcelPresets.name), asc(parcelPresets.id))
      .limit(query.limit)
      .offset(query.offset),
    ctx.db.select({ n: count() }).from(parcelPresets).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map(presentParcelPreset) };
}
