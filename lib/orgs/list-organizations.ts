import { asc } from "drizzle-orm";
import { organizations } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";

export async function listOrganizations(db: DbOrTx) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      default: organizations.isDefault,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .orderBy(asc(organizations.createdAt));
}
