import "server-only";
import { and, eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import { events } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import type { Event } from "@/lib/schemas/event";
import { presentEvent, readableEvents } from "./event-rows";

/** One of the organization's events of the last 30 days; an older one, or another organization's, is not found. */
export async function getEvent({
  ctx,
  id,
  now = new Date(),
}: {
  ctx: DomainContext;
  id: string;
  now?: Date;
}): Promise<Event> {
  const [row] = await ctx.db
    .select()
    .from(events)
    .where(and(readableEvents(ctx.org.id, now), eq(events.id, id)));
  if (!row) throw new NotFoundError(`Event ${id} does not exist.`);
  return presentEvent(row);
}
