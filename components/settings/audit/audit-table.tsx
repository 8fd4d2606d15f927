import Link from "next/link";
import { History } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Member } from "@/lib/auth/team";
import type { AuditEvent } from "@/lib/schemas/audit-event";
import { auditUrl, type AuditFilterValues } from "./search-params";

/** Who acted, in words: a teammate by name (the admin reading sees the team anyway), a key or a job by its name. */
function actorLabel(actor: AuditEvent["actor"], members: Map<string, Member>): string {
  if (actor.type === "user") return (actor.id && members.get(actor.id)?.name) || `Former member ${actor.id ?? ""}`;
  if (actor.type === "api_key") return `API key “${actor.name ?? actor.id}”`;
  if (actor.type === "system") return `System (${actor.name})`;
  return "Unknown (failed sign-in)";
}

/** What changed, in short: the summary's facts as `key: value` pairs. */
function summaryText(summary: AuditEvent["summary"]): string {
  return Object.entries(summary)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
    .join(" · ");
}

/** The audit log, newest first, 50 to a page; "Older" follows the cursor and keeps the filters. */
export function AuditTable({
  events,
  members,
  nextCursor,
  filters,
}: {
  events: AuditEvent[];
  members: Member[];
  nextCursor: string | null;
  filters: AuditFilterValues;
}) {
  if (events.length === 0) {
    return <EmptyState icon={History} title="Nothing recorded" description="No change matches these filters." />;
  }
  const byId = new Map(members.map((m) => [m.userId, m]));
  return (
    <section aria-labelledby="audit-heading" className="grid grid-cols-1 gap-3">
      <h2 id="audit-heading" className="text-lg font-semibold">
        Audit log
      </h2>
      <div className="rounded-md border">
        <Table scrollLabel="Audit log entries">
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Who</TableHead>
              <TableHead>Action</TableHead>
              <TableHead>Resource</TableHead>
              <TableHead>Details</TableHead>
              <TableHead>From</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {events.map((e) => (
              <TableRow key={e.id}>
                <TableCell className="whitespace-nowrap">
                  <LocalTime timestamp={e.created_at} />
                </TableCell>
                <TableCell>{actorLabel(e.actor, byId)}</TableCell>
                <TableCell className="font-mono text-xs">{e.action}</TableCell>
                <TableCell className="font-mono text-xs">{e.resource.id}</TableCell>
                <TableCell className="max-w-80 text-xs text-muted-foreground">{summaryText(e.summary)}</TableCell>
                <TableCell className="text-xs">
                  {e.client.address ?? "—"}
                  {e.client.user_agent && (
                    <span className="block max-w-56 truncate text-muted-foreground" title={e.client.user_agent}>
                      {e.client.user_agent}
                    </span>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {(filters.cursor || nextCursor) && (
        <nav aria-label="Pagination" className="flex justify-between gap-3">
          {filters.cursor ? (
            <Link
              href={auditUrl({ ...filters, cursor: undefined })}
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              Newest
            </Link>
          ) : (
            <span />
          )}
          {nextCursor && (
            <Link
              href={auditUrl({ ...filters, cursor: nextCursor })}
              rel="next"
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              Older
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
