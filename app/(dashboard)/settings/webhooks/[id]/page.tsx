import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { Badge, TestBadge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { EndpointActions } from "@/components/webhooks/endpoint-actions";
import { EndpointStatus, eventsLabel } from "@/components/webhooks/endpoint-status";
import { RedeliverButton } from "@/components/webhooks/redeliver-button";
import { roleAllows } from "@/lib/auth/roles";
import { requireSession } from "@/lib/dashboard/session";
import { NotFoundError } from "@/lib/errors";
import { getEndpoint } from "@/lib/webhooks/get-endpoint";
import { listEndpointAttempts } from "@/lib/webhooks/list-attempts";
import { PageTitle } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Webhook endpoint" };

/** One endpoint: what it receives, its actions (owners and admins), and its delivery log, newest first. */
export default async function WebhookEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { ctx, role } = await requireSession();
  const canWrite = roleAllows(role, "admin");
  const loaded = await Promise.all([
    getEndpoint({ ctx, id }),
    listEndpointAttempts({ ctx, id, filters: { limit: 50, offset: 0 } }),
  ]).catch((err: unknown) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
  if (!loaded) notFound();
  const [endpoint, log] = loaded;
  return (
    <div className="grid grid-cols-1 gap-6">
      <header className="grid gap-3">
        <Link
          href="/settings/webhooks"
          className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden className="size-4" /> Webhooks
        </Link>
        <PageTitle className="break-all">{endpoint.url}</PageTitle>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <EndpointStatus endpoint={endpoint} />
          {endpoint.test_mode ? <TestBadge /> : <Badge>Live</Badge>}
          <span className="text-muted-foreground">API version {endpoint.api_version}</span>
        </div>
        <dl className="grid gap-1 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-4">
          <dt className="text-muted-foreground">Description</dt>
          <dd>{endpoint.description || "—"}</dd>
          <dt className="text-muted-foreground">Events</dt>
          <dd>{eventsLabel(endpoint)}</dd>
          <dt className="text-muted-foreground">ID</dt>
          <dd className="font-mono text-xs">{endpoint.id}</dd>
        </dl>
        {canWrite && <EndpointActions endpoint={endpoint} />}
      </header>
      <section aria-labelledby="log-heading" className="grid grid-cols-1 gap-3">
        <h2 id="log-heading" className="text-lg font-semibold">
          Delivery log{" "}
          <span className="text-sm font-normal text-muted-foreground">
            ({log.count} {log.count === 1 ? "attempt" : "attempts"})
          </span>
        </h2>
        {log.results.length === 0 ? (
          <EmptyState title="No deliveries yet" description="Send a test event, or wait for the next event." />
        ) : (
          <div className="rounded-md border">
            <Table scrollLabel="Delivery attempts">
              <TableHeader>
                <TableRow>
                  <TableHead>Time</TableHead>
                  <TableHead>Event</TableHead>
                  <TableHead>Result</TableHead>
                  <TableHead>Duration</TableHead>
                  <TableHead>Answer</TableHead>
                  {canWrite && (
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  )}
                </TableRow>
              </TableHeader>
              <TableBody>
                {log.results.map((a, i) => (
                  <TableRow key={`${a.attempted_at}-${a.event_id}-${i}`}>
                    <TableCell className="whitespace-nowrap">
                      <LocalTime timestamp={a.attempted_at} />
                    </TableCell>
                    <TableCell>
                      <span className="font-medium">{a.event_type}</span>
                      <span className="block font-mono text-xs text-muted-foreground">{a.event_id}</span>
                    </TableCell>
                    <TableCell>
                      <Badge tone={a.succeeded ? "success" : "danger"}>{a.status_code ?? "No answer"}</Badge>
                      {a.error_class && <span className="block text-xs text-muted-foreground">{a.error_class}</span>}
                    </TableCell>
                    <TableCell className="whitespace-nowrap">{a.duration_ms} ms</TableCell>
                    <TableCell className="max-w-xs">
                      <span className="line-clamp-2 font-mono text-xs break-all">{a.response_excerpt ?? "—"}</span>
                    </TableCell>
                    {canWrite && (
                      <TableCell className="text-right">
                        {a.event_type !== "ping" && <RedeliverButton eventId={a.event_id} endpointId={endpoint.id} />}
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </section>
    </div>
  );
}
