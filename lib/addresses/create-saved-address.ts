import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record";
import { withTransaction, type DomainContext } from "@/lib/context";
import { newId } from "@/lib/db/ids";
import { savedAddresses } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { queueOnOrganization } from "@/lib/orgs/queue-on-organization";
import type { SavedAddress, SavedAddressCreate } from "@/lib/schemas/address-book";
import { presentSavedAddress, savedAddressValues } from "./rows";

/** Takes the default ship-from off whichever address has it (one per organization: a unique index holds it). */
export async function clearDefaultSender(db: DbOrTx, orgId: string) {
  await db
    .update(savedAddresses)
    .set({ isDefaultSender: false })
    .where(and(eq(savedAddresses.orgId, orgId), eq(savedAddresses.isDefaultSender, true)));
}

/** POST /v1/addresses: an address kept in the organization's book. */
export async function createSavedAddress({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: SavedAddressCreate;
}): Promise<SavedAddress> {
  return withTransaction(ctx, async (txCtx) => {
    if (input.is_default_sender) {
      // Queued behind another change of the default ship-from, so this one takes it off the address that one set.
      await queueOnOrganization(txCtx.db, ctx.org.id);
      await clearDefaultSender(txCtx.db, ctx.org.id);
    }
    const [row] = await txCtx.db
      .insert(savedAddresses)
      .values({
        id: newId("saved_address"),
        orgId: ctx.org.id,
        isDefaultSender: input.is_default_sender,
        ...savedAddressValues(input),
      })
      .returning();
    await recordAudit(txCtx, {
      action: "address.created",
      resourceId: row!.id,
      summary: { country_code: row!.countryCode, is_default_sender: row!.isDefaultSender },
    });
    return presentSavedAddress(row!);
  });
}
