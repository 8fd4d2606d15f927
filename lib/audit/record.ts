import "server-only";
import type { Actor, DomainContext } from "@/lib/context";
import { auditEvents } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { Tx } from "@/lib/db/tx";
import type { AuditAction } from "@/lib/schemas/audit-event";

/**
 * The audit log's one writer (docs/api.md, "Audit log"). It takes the transaction of the change (`db: Tx`), as the
 * webhook outbox does, so a row exists exactly when its change committed; who acted and from where come from the
 * context the verb runs with, never from arguments of its own.
 */

/** What a writer needs of its context: the change's transaction, the organization, the actor and the request. */
export type AuditContext = Pick<DomainContext, "org" | "origin"> & {
  db: Tx;
  /** `anonymous` only for a failed sign-in: nobody proved who they are. */
  actor: Actor | { type: "anonymous" };
  requestId?: string;
};

/** A summary holds facts of the change: ids, statuses, field names, counts, flags. Never secrets or personal data. */
export type AuditSummary = Record<string, string | number | boolean | null | string[]>;

export interface AuditEntry {
  action: AuditAction;
  /** The id of the resource the action names (the part of the action before the dot). */
  resourceId: string;
  summary?: AuditSummary;
}

function actorColumns(actor: AuditContext["actor"]) {
  if (actor.type === "anonymous") return { actorType: "anonymous" as const, actorId: null, actorName: null };
  if (actor.type === "system") return { actorType: "system" as const, actorId: null, actorName: actor.name };
  if (actor.type === "api_key")
    return { actorType: "api_key" as const, actorId: actor.id, actorName: actor.name ?? null };
  return { actorType: "user" as const, actorId: actor.id, actorName: null };
}

export async function recordAudit(ctx: AuditContext, entries: AuditEntry | AuditEntry[], now = new Date()) {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  const who = actorColumns(ctx.actor);
  await ctx.db.insert(auditEvents).values(
    list.map((e) => ({
      id: newId("audit"),
      orgId: ctx.org.id,
      createdAt: now,
      ...who,
      action: e.action,
      resourceType: e.action.slice(0, e.action.indexOf(".")),
      resourceId: e.resourceId,
      clientAddress: ctx.origin?.address ?? null,
      userAgent: ctx.origin?.userAgent ?? null,
      requestId: ctx.requestId ?? null,
      summary: e.summary ?? {},
    })),
  );
}

/** The names of the fields an update set, for a summary: what changed, without the values (which may be secret). */
export function changedFields(input: Record<string, unknown>): string[] {
  return Object.keys(input)
    .filter((k) => input[k] !== undefined)
    .sort();
}
