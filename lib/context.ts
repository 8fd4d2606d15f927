import type { Logger } from "pino";
import type { Db } from "@/lib/db/tx";

/** What every domain verb runs with: the caller's organization, the database and the request's signal. */
export interface DomainContext {
  db: Db;
  org: { id: string };
  requestId?: string;
  log?: Logger;
  signal?: AbortSignal;
}
