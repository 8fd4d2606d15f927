"use client";

import { Badge, TestBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { apiFetch } from "@/lib/client/api";
import { problemText } from "@/lib/client/problems";
import { FormError } from "@/components/forms/form-fields";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import type { CarrierDeclaration } from "@/lib/schemas/carrier";
import type { Connection } from "@/lib/schemas/connection";
import { AddConnectionDialog } from "./add-connection-dialog";
import { EditConnectionDialog } from "./edit-connection-dialog";
import { TestConnectionDialog } from "./test-connection-dialog";
import { LocalTime } from "@/components/ui/local-time";

export interface ConnectionIssue {
  message: string;
  at: string;
}

/**
 * The organization's carrier connections. Everyone sees them and may test one; admins and owners add, edit,
 * (de)activate and delete, all through /v1/connections.
 */
export function ConnectionsPanel({
  connections,
  carriers,
  issues,
  manager,
}: {
  connections: Connection[];
  carriers: CarrierDeclaration[];
  issues: Record<string, ConnectionIssue>;
  manager: boolean;
}) {
  const toggle = useApiMutation({
    request: (c: Connection) =>
      apiFetch<Connection>(`/v1/connections/${c.id}`, { method: "PATCH", body: { active: !c.active } }),
    success: (c) => `${c.carrier_id} is ${c.active ? "active" : "inactive"}.`,
  });
  const remove = useApiMutation({
    request: (c: Connection) => apiFetch<Connection>(`/v1/connections/${c.id}`, { method: "DELETE" }),
    success: (c) => `Connection ${c.carrier_id} deleted.`,
    failure: "caller",
  });
  const carrierOf = (c: Connection) => carriers.find((d) => d.carrier_name === c.carrier_name);

  return (
    <section aria-labelledby="connections-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="connections-heading" className="text-lg font-semibold">
            Carrier connections
          </h2>
          {!manager && (
            <p className="text-sm text-muted-foreground">
              You can see and test the connections; an owner or admin adds and changes them.
            </p>
          )}
        </div>
        {manager && <AddConnectionDialog carriers={carriers} />}
      </div>
      <div className="overflow-x-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Carrier</TableHead>
              <TableHead>Connection id</TableHead>
              <TableHead>Mode</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Last error</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {connections.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} className="text-muted-foreground">
                  No connections yet: rates and labels need at least one.
                </TableCell>
              </TableRow>
            )}
            {connections.map((c) => {
              const issue = issues[c.id];
              return (
                <TableRow key={c.id} data-connection={c.carrier_id}>
                  <TableCell>
                    <span className="font-medium">{carrierOf(c)?.display_name ?? c.carrier_name}</span>
                    {c.display_name &&
                      c.display_name !== c.carrier_id &&
                      c.display_name !== carrierOf(c)?.display_name && (
                        <span className="block text-xs text-muted-foreground">{c.display_name}</span>
                      )}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{c.carrier_id}</TableCell>
                  <TableCell>{c.test_mode ? <TestBadge /> : <Badge tone="info">LIVE</Badge>}</TableCell>
                  <TableCell>
                    {c.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>}
                  </TableCell>
                  <TableCell className="max-w-64 text-xs">
                    {c.refresh_backoff_until && (
                      <span className="block text-warning">
                        Carrier asked to slow down: tracking waits until{" "}
                        <LocalTime timestamp={c.refresh_backoff_until} />
                      </span>
                    )}
                    {issue ? (
                      <span className="block">
                        {issue.message}{" "}
                        <span className="text-muted-foreground">
                          (<LocalTime timestamp={issue.at} />)
                        </span>
                      </span>
                    ) : (
                      !c.refresh_backoff_until && <span className="text-muted-foreground">None</span>
                    )}
                  </TableCell>
                  <TableCell>
                    <div className="flex flex-wrap justify-end gap-2">
                      <TestConnectionDialog connection={c} />
                      {manager && (
                        <>
                          <EditConnectionDialog connection={c} carrier={carrierOf(c)} />
                          <Button
                            variant="outline"
                            size="sm"
                            loading={toggle.isPending && toggle.variables?.id === c.id}
                            onClick={() => toggle.mutate(c)}
                          >
                            {c.active ? "Deactivate" : "Activate"} <span className="sr-only">{c.carrier_id}</span>
                          </Button>
                          <ConfirmDialog
                            trigger={
                              <Button variant="outline" size="sm">
                                Delete <span className="sr-only">{c.carrier_id}</span>
                              </Button>
                            }
                            title={`Delete the connection “${c.carrier_id}”?`}
                            description="Its credentials are erased. Labels already bought stay; their trackers move to another connection of the same carrier, if any."
                            confirmLabel={`Delete connection ${c.carrier_id}`}
                            onConfirm={async () => {
                              remove.reset();
                              await remove.mutateAsync(c);
                            }}
                          >
                            <FormError>{remove.error ? problemText(remove.error) : null}</FormError>
                          </ConfirmDialog>
                        </>
                      )}
                    </div>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}
