import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/tx";
import {
  forOrganization,
  systemContext,
  type DomainContext,
  type RequestOrigin,
  type SystemContext,
} from "@/lib/context";
import { createOrganization } from "@/lib/orgs/create-organization";
import { createApiKey } from "@/lib/auth/api-keys";

export interface TestOrg {
  orgId: string;
  key: string;
  keyId: string;
}

/** The service's own context, as a job or the command line has it. */
export async function systemCtx(db?: Db): Promise<SystemContext> {
  return systemContext(db ?? (await getDb()), "test");
}

/** A context acting as a signed-in person before an organization is chosen (accepting an invitation), from `origin`. */
export async function personCtx(user: { id: string }, origin?: RequestOrigin): Promise<Omit<DomainContext, "org">> {
  return { ...(await systemCtx()), actor: { type: "user", id: user.id }, origin };
}

/** A domain context for `orgId`, as a request would have it (the database may be a stand-in with faults). */
export async function orgCtx(orgId: string, db?: Db): Promise<DomainContext> {
  return forOrganization(await systemCtx(db), orgId);
}

/**
 * Another instance's handle on `db`, for races put in one order on both engines: each update it builds, when about to
 * run, tells `onWrite`, then waits for `before` (the other instance's work) before it runs.
 */
export function writesWaiting(db: Db, before: Promise<unknown>, onWrite = () => {}): Db {
  const handle = Object.create(db) as Db;
  handle.update = ((table: Parameters<Db["update"]>[0]) => {
    const builder = db.update(table);
    const set = builder.set.bind(builder);
    return Object.assign(builder, {
      set: (values: Parameters<typeof set>[0]) => {
        // `where` and `returning` give back this same query, and awaiting it calls `execute`.
        const query = set(values);
        const execute = query.execute.bind(query);
        return Object.assign(query, {
          execute: async (...args: Parameters<typeof execute>) => {
            onWrite();
            await before;
            return execute(...args);
          },
        });
      },
    });
  }) as Db["update"];
  return handle;
}

export async function makeOrg(name = "Test org"): Promise<TestOrg> {
  const ctx = await systemCtx();
  const org = await createOrganization({ ctx, name });
  const key = await createApiKey({ ctx, orgId: org.id, name: "test", source: "api" });
  return { orgId: org.id, key: key.key, keyId: key.id };
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  query?: Record<string, string>;
}

// Tests read response bodies loosely and assert their shape explicitly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

export interface CallResult<T = Loose> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = Loose>(
  handler: Handler,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult<T>> {
  const url = new URL(path, "http://localhost");
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set("Authorization", `Token ${opts.key}`);
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  }
  const res = await handler(new Request(url, { method, headers, body }), {
    params: Promise.resolve(opts.params ?? {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (label files); keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/**
 * Until a statement of this database waits for a row lock (the second of two changes a race test holds apart).
 * Postgres only: PGlite runs one transaction at a time.
 */
export async function untilWaitingOnLock() {
  const db = await getDb();
  for (let i = 0; i < 500; i++) {
    const rows = (await db.execute(
      sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as unknown[];
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the second change never waited for the first");
}
