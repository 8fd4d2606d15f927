import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { savedAddresses } from "@/lib/db/schema";
import type { SavedAddress } from "@/lib/schemas/address-book";
import { findSavedAddress } from "./get-saved-address";
import { presentSavedAddress } from "./rows";

/** DELETE /v1/addresses/{id}: answers the address as it was. Shipments keep their own copies. */
export async function deleteSavedAddress({ ctx, id }: { ctx: DomainContext; id: string }): Promise<SavedAddress> {
  return withTransaction(ctx, async (txCtx) => {
    const row = await findSavedAddress(txCtx.db, ctx.org.id, id, true);
    await txCtx.db.delete(savedAddresses).where(and(eq(savedAddresses.orgId, ctx.org.id), eq(savedAddresses.id, id)));
    await recordAudit(txCtx, { action: "address.deleted", resourceId: id, summary: { country_code: row.countryCode } });
    return presentSavedAddress(row);
  });
}
