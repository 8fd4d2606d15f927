import "server-only";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { savedAddresses } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError } from "@/lib/errors";
import type { SavedAddress } from "@/lib/schemas/address-book";
import { presentSavedAddress, type SavedAddressRow } from "./rows";

/** The organization's saved address, locked for a change when `forUpdate`; another organization's is not found. */
export async function findSavedAddress(
  db: DbOrTx,
  orgId: string,
  id: string,
  forUpdate = false,
): Promise<SavedAddressRow> {
  const query = db
    .select()
    .from(savedAddresses)
    .where(and(eq(savedAddresses.orgId, orgId), eq(savedAddresses.id, id)));
  const [row] = forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("The address does not exist.");
  return row;
}

export async function getSavedAddress({ ctx, id }: { ctx: DomainContext; id: string }): Promise<SavedAddress> {
  return presentSavedAddress(await findSavedAddress(ctx.db, ctx.org.id, id));
}
