import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { savedAddresses } from "@/lib/db/schema";
import { queueOnOrganization } from "@/lib/orgs/queue-on-organization";
import type { SavedAddress, SavedAddressUpdate } from "@/lib/schemas/address-book";
import { clearDefaultSender } from "./create-saved-address";
import { findSavedAddress } from "./get-saved-address";
import { fieldsOf, presentSavedAddress, savedAddressValues } from "./rows";

/** PATCH /v1/addresses/{id}: the fields given change, the others stay. */
export async function updateSavedAddress({
  ctx,
  id,
  input,
}: {
  ctx: DomainContext;
  id: string;
  input: SavedAddressUpdate;
}): Promise<SavedAddress> {
  return withTransaction(ctx, async (txCtx) => {
    // A new default ship-from queues behind another change of it (create-saved-address.ts takes the same lock).
    if (input.is_default_sender === true) await queueOnOrganization(txCtx.db, ctx.org.id);
    const current = await findSavedAddress(txCtx.db, ctx.org.id, id, true);
    const { is_default_sender, ...given } = input;
    const changed = Object.keys(given).filter((k) => given[k as keyof typeof given] !== undefined);
    // Nothing given, nothing changes: no write, no audit row (the audit log records changes).
    if (changed.length === 0 && is_default_sender === undefined) return presentSavedAddress(current);
    const fields = {
      ...fieldsOf(current),
      ...Object.fromEntries(changed.map((k) => [k, given[k as keyof typeof given]])),
    };
    if (is_default_sender === true && !current.isDefaultSender) await clearDefaultSender(txCtx.db, ctx.org.id);
    const [row] = await txCtx.db
      .update(savedAddresses)
      .set({
        ...savedAddressValues(fields as ReturnType<typeof fieldsOf>),
        ...(is_default_sender === undefined ? {} : { isDefaultSender: is_default_sender }),
        updatedAt: new Date(),
      })
      .where(and(eq(savedAddresses.orgId, ctx.org.id), eq(savedAddresses.id, id)))
      .returning();
    await recordAudit(txCtx, {
      action: "address.updated",
      resourceId: id,
      summary: { fields: [...changed, ...(is_default_sender === undefined ? [] : ["is_default_sender"])] },
    });
    return presentSavedAddress(row!);
  });
}
