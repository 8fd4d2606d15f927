import "server-only";
import { and, eq } from "drizzle-orm";
import { carrierConnections } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/context";
import { forgetOrgConnections } from "./cache";
import { findConnectionRow } from "./find-connection";
import { presentConnection } from "./present";

export async function deleteConnection({ ctx, id }: { ctx: DomainContext; id: string }) {
  const row = await findConnectionRow(ctx.db, ctx.org.id, id);
  await ctx.db
    .delete(carrierConnections)
    .where(and(eq(carrierConnections.orgId, ctx.org.id), eq(carrierConnections.id, id)));
  forgetOrgConnections(ctx.org.id);
  return presentConnection(row);
}
