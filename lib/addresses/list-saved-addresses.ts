import "server-only";
import { and, count, desc, eq, ilike } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { likePattern } from "@/lib/db/like";
import { savedAddresses } from "@/lib/db/schema";
import type { SavedAddress, SavedAddressListQuery } from "@/lib/schemas/address-book";
import { presentSavedAddress } from "./rows";

/** GET /v1/addresses: the organization's book, newest first; `q` searches names, street, city and postal code. */
export async function listSavedAddresses({
  ctx,
  query,
}: {
  ctx: DomainContext;
  query: SavedAddressListQuery;
}): Promise<{ count: number; results: SavedAddress[] }> {
  const where = and(
    eq(savedAddresses.orgId, ctx.org.id),
    query.q ? ilike(savedAddresses.searchText, likePattern(query.q.toLowerCase())) : undefined,
    query.is_default_sender === undefined ? undefined : eq(savedAddresses.isDefaultSender, query.is_default_sender),
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(savedAddresses)
      .where(where)
      .orderBy(desc(savedAddresses.createdAt), desc(savedAddresses.id))
      .limit(query.limit)
      .offset(query.offset),
    ctx.db.select({ n: count() }).from(savedAddresses).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map(presentSavedAddress) };
}
