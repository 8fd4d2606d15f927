"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { revokeInvite } from "@/app/(dashboard)/settings/team/actions";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { actionValue } from "@/lib/client/problems";
import { LocalTime } from "@/components/ui/local-time";

export interface InvitationRow {
  id: string;
  email: string;
  role: string;
  state: string;
  expiresAt: string;
}

/** Invitations not yet used: who, as what, until when; a pending link can be revoked. */
export function InvitationsList({ invitations, manager }: { invitations: InvitationRow[]; manager: boolean }) {
  // The server action revalidates the page itself.
  const revoke = useApiMutation({
    request: async (inv: InvitationRow) => actionValue(await revokeInvite(inv.id)),
    success: (_, inv) => `Invitation for ${inv.email} revoked.`,
    refresh: false,
  });
  if (invitations.length === 0) return <p className="text-sm text-muted-foreground">No open invitations.</p>;
  return (
    <ul className="divide-y rounded-md border">
      {invitations.map((inv) => (
        <li key={inv.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
          <span>
            <span className="font-medium">{inv.email}</span> as {inv.role}{" "}
            {inv.state === "expired" ? (
              <Badge tone="neutral">Expired</Badge>
            ) : (
              <span className="text-muted-foreground">
                · link works until <LocalTime timestamp={inv.expiresAt} />
              </span>
            )}
          </span>
          {manager && (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm">
                  {inv.state === "expired" ? "Dismiss" : "Revoke"}
                </Button>
              }
              title={`Revoke the invitation for ${inv.email}?`}
              description="The link stops working at once. You can invite them again later."
              confirmLabel={`Revoke invitation for ${inv.email}`}
              onConfirm={async () => {
                await revoke.mutateAsync(inv);
              }}
            />
          )}
        </li>
      ))}
    </ul>
  );
}
