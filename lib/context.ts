import "server-only";
import type { Logger } from "pino";
import type { DbOrTx, Tx } from "@/lib/db/tx";
import { log } from "@/lib/log";
import { randomHex128 } from "@/lib/random";

/**
 * Who is acting: an API key (the API), a signed-in user (the dashboard), or the service itself (background jobs,
 * the command line, start-up). Verbs that care (audit, permissions) read it; nothing else branches on it.
 */
export type Actor =
  | { type: "api_key"; id: string; /** The key's name, for the audit log (the API always knows it). */ name?: string }
  | { type: "user"; id: string }
  | { type: "system"; name: string };

/** Where a request came from, for the audit log: the client's address (TRUST_PROXY-aware) and its user agent. */
export interface RequestOrigin {
  address: string | null;
  userAgent: string | null;
}

/** What every domain verb runs with. Verbs take `({ ctx, ... })`. */
export interface DomainContext {
  db: DbOrTx;
  org: { id: string };
  actor: Actor;
  requestId: string;
  log: Logger;
  /** Aborted when the caller gives up (the client hung up). Jobs have none. */
  signal?: AbortSignal;
  /** The request's client (API and dashboard); jobs have none. */
  origin?: RequestOrigin;
  /**
   * Waits for a connection's budget right before each call to its carrier (the rating and the purchase verbs call it
   * last, so the wait is what the carrier sees). `steps.last` runs once the slot has come (a purchase's claim), and
   * `steps.undo` undoes it when the call turned out late and waits again; `steps.withinMs` bounds the wait of a
   * request of a call under way (pacedAgain). A batch sets it (lib/batches/run-batch.ts); a person's request has none.
   */
  paceCarrier?: (
    connection: { id: string; config: Record<string, unknown> },
    steps?: { last?: () => Promise<void>; undo?: () => Promise<void>; withinMs?: number },
  ) => Promise<void>;
}

/** Verbs that span organizations (jobs, the command line, start-up) run as the service, with no organization. */
export type SystemContext = Omit<DomainContext, "org" | "actor"> & { actor: Extract<Actor, { type: "system" }> };

/** The service's own context for `name` (a job, a command), with a request id of its own for the logs. */
export function systemContext(db: DbOrTx, name: string): SystemContext {
  const requestId = `job_${randomHex128()}`;
  return { db, actor: { type: "system", name }, requestId, log: log().child({ request_id: requestId, job: name }) };
}

/** The same context acting for one organization (a job that works on one organization's records). */
export function forOrganization(ctx: SystemContext, orgId: string): DomainContext {
  return { ...ctx, org: { id: orgId } };
}

/**
 * Runs `fn` in one transaction with a context whose `db` is that transaction, so verbs called inside compose with
 * it (a nested call becomes a savepoint). The one way domain code opens a transaction.
 */
export function withTransaction<C extends { db: DbOrTx }, T>(
  ctx: C,
  fn: (tx: C & { db: Tx }) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction((tx) => fn({ ...ctx, db: tx }));
}
