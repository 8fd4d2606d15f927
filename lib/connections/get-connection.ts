import "server-only";
import type { DomainContext } from "@/lib/context";
import { findConnectionRow } from "./find-connection";
import { presentConnection } from "./present";

export async function getConnection({ ctx, id }: { ctx: DomainContext; id: string }) {
  return presentConnection(await findConnectionRow(ctx.db, ctx.org.id, id));
}
