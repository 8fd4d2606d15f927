import "server-only";
import { and, eq } from "drizzle-orm";
import { lastShipFrom } from "@/lib/auth/memberships";
import type { DomainContext } from "@/lib/context";
import { savedAddresses } from "@/lib/db/schema";
import type { Address } from "@/lib/schemas/address";
import { presentSavedAddress } from "./rows";

/**
 * The ship-from a new label or batch starts with: the one this person used last in the organization, else the
 * organization's default ship-from (the address book's `is_default_sender`), else none. A clerk's first label at a
 * new organization starts from its warehouse, not from a blank form.
 */
export async function startingShipFrom(ctx: DomainContext): Promise<Partial<Address> | null> {
  const last = await lastShipFrom(ctx);
  if (last) return last;
  const [row] = await ctx.db
    .select()
    .from(savedAddresses)
    .where(and(eq(savedAddresses.orgId, ctx.org.id), eq(savedAddresses.isDefaultSender, true)));
  if (!row) return null;
  // The saved address as an Address: the book's own fields (its label, whether it is the default) left out.
  const {
    id: _id,
    object_type: _type,
    label: _label,
    is_default_sender: _default,
    created_at: _c,
    updated_at: _u,
    residential,
    ...address
  } = presentSavedAddress(row);
  return { ...address, residential: residential ?? undefined };
}
