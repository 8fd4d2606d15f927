import type { Metadata } from "next";
import Link from "next/link";
import { Webhook } from "lucide-react";
import { SettingsHeader } from "@/components/settings/settings-header";
import { TestBadge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { EndpointFormDialog } from "@/components/webhooks/endpoint-form-dialog";
import { EndpointStatus, eventsLabel } from "@/components/webhooks/endpoint-status";
import { roleAllows } from "@/lib/auth/roles";
import { requireSession } from "@/lib/dashboard/session";
import { listEndpoints } from "@/lib/webhooks/list-endpoints";

export const metadata: Metadata = { title: "Webhooks" };

/** The organization's webhook endpoints (at most 20): everyone reads them, owners and admins add and change them. */
export default async function WebhooksSettings() {
  const { ctx, role } = await requireSession();
  const canWrite = roleAllows(role, "admin");
  const { results } = await listEndpoints({ ctx, page: { limit: 100, offset: 0 } });
  return (
    <div className="grid gap-6">
      <SettingsHeader current="webhooks" role={role} />
      <section aria-labelledby="webhooks-heading" className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="grid gap-1">
            <h2 id="webhooks-heading" className="text-lg font-semibold">
              Webhook endpoints
            </h2>
            <p className="text-sm text-muted-foreground">
              {canWrite
                ? "Shipment and tracker events are sent to these URLs, signed, as they happen."
                : "You can see the endpoints; an owner or admin can add and change them."}
            </p>
          </div>
          {canWrite && <EndpointFormDialog />}
        </div>
        {results.length === 0 ? (
          <EmptyState
            icon={Webhook}
            title="No webhook endpoints yet"
            description="Add one to hear about purchases, status changes and deliveries without polling."
          />
        ) : (
          <div className="overflow-x-auto rounded-md border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>URL</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Events</TableHead>
                  <TableHead>Mode</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {results.map((endpoint) => (
                  <TableRow key={endpoint.id}>
                    <TableCell className="max-w-md">
                      <Link
                        href={`/settings/webhooks/${endpoint.id}`}
                        className="font-medium break-all text-primary underline-offset-4 hover:underline"
                      >
                        {endpoint.url}
                      </Link>
                      {endpoint.description && <p className="text-xs text-muted-foreground">{endpoint.description}</p>}
                    </TableCell>
                    <TableCell>
                      <EndpointStatus endpoint={endpoint} />
                    </TableCell>
                    <TableCell className="max-w-xs text-xs">{eventsLabel(endpoint)}</TableCell>
                    <TableCell>{endpoint.test_mode ? <TestBadge /> : "Live"}</TableCell>
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
