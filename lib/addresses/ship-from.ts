import "server-only";
import { and, eq } from "drizzle-orm";
import { savedAddresses } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { AddressInput } from "@/lib/schemas/address";
import { parseInput } from "@/lib/validation";
import { findSavedAddress } from "./get-saved-address";
import { fieldsOf } from "./rows";

/**
 * A ship-from out of the organization's address book: the entry `id` names, or, without one, the entry marked as the
 * default ship-from; null when there is no id and no default. `field` is the request field the id came in, named by
 * a refusal (an unknown id, or an entry that lacks what a ship-from needs).
 */
export async function shipFromBook(
  db: DbOrTx,
  orgId: string,
  id: string | null,
  field: string,
): Promise<AddressInput | null> {
  let row;
  if (id !== null) {
    try {
      row = await findSavedAddress(db, orgId, id);
    } catch (err) {
      if (err instanceof NotFoundError) throw new ValidationError("is not an address in the address book", field);
      throw err;
    }
  } else {
    [row] = await db
      .select()
      .from(savedAddresses)
      .where(and(eq(savedAddresses.orgId, orgId), eq(savedAddresses.isDefaultSender, true)));
    if (!row) return null;
  }
  // A book entry's residential class may be unknown (null); a ship-from's is then the input's default.
  const { label: _label, residential, ...address } = fieldsOf(row);
  const parsed = parseInput(AddressInput, residential === null ? address : { ...address, residential });
  if (!parsed.ok) {
    const problem = parsed.problems[0]!;
    throw new ValidationError(`the saved address cannot ship: ${problem.field} ${problem.message}`, field);
  }
  return parsed.data;
}
