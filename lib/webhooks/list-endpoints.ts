import "server-only";
import { count, desc, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import type { PageQuery } from "@/lib/schemas/pagination";
import { presentEndpoint } from "./present-endpoint";

/** The organization's endpoints, newest first (never their secrets). */
export async function listEndpoints({ ctx, page }: { ctx: DomainContext; page: PageQuery }) {
  const where = eq(webhookEndpoints.orgId, ctx.org.id);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(webhookEndpoints)
      .where(where)
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(webhookEndpoints).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map(presentEndpoint) };
}
