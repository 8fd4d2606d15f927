import "server-only";
import { asc } from "drizzle-orm";
import type { SystemContext } from "@/lib/context";
import { organizations } from "@/lib/db/schema";

export async function listOrganizations({ ctx }: { ctx: SystemContext }) {
  return ctx.db
    .select({
      id: organizations.id,
      name: organizations.name,
      default: organizations.isDefault,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .orderBy(asc(organizations.createdAt));
}
