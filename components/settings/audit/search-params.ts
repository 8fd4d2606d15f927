import type { SearchParams } from "nuqs/server";
import { AuditEventListQuery, type AuditEventListQuery as Query } from "@/lib/schemas/audit-event";

/** The page's filters, as the URL names them (the API's own query parameters). */
const AUDIT_FILTERS = ["action", "actor_id", "resource_id", "created_after", "created_before"] as const;
export type AuditFilterValues = Partial<Record<(typeof AUDIT_FILTERS)[number] | "cursor", string>>;

/**
 * The URL's filters read with the API's own schema (lib/schemas), so the page and GET /v1/audit_events agree on what
 * a filter means. Filters that do not parse are dropped and reported, and the log is shown without them.
 */
export function auditQueryFrom(params: SearchParams): { query: Query; raw: AuditFilterValues; invalid: boolean } {
  const raw: AuditFilterValues = {};
  for (const name of [...AUDIT_FILTERS, "cursor"] as const) {
    const value = params[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (first) raw[name] = first;
  }
  const parsed = AuditEventListQuery.safeParse({ ...raw, limit: "50" });
  if (parsed.success) return { query: parsed.data, raw, invalid: false };
  return { query: AuditEventListQuery.parse({ limit: "50" }), raw, invalid: true };
}

/** The page's URL with these filters (empty ones left out). */
export function auditUrl(values: AuditFilterValues): string {
  const params = new URLSearchParams(Object.entries(values).filter((e): e is [string, string] => Boolean(e[1])));
  const query = params.toString();
  return query ? `/settings/audit?${query}` : "/settings/audit";
}
