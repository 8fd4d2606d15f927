"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { NativeSelect } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { changeRole, removeFromTeam } from "@/app/(dashboard)/settings/team/actions";
import { FormError } from "@/components/forms/form-fields";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { actionValue, problemText } from "@/lib/client/problems";
import type { Role } from "@/lib/auth/roles";
import { LocalTime } from "@/components/ui/local-time";

export interface MemberRow {
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
}

/**
 * The organization's people. Admins and owners change roles and remove people; only an owner touches owners (the
 * server says no otherwise, and the last owner stays one whatever this table offers).
 */
export function MembersTable({ members, viewer }: { members: MemberRow[]; viewer: { userId: string; role: Role } }) {
  const manager = viewer.role !== "member";
  // The server actions revalidate the page themselves.
  const setRole = useApiMutation({
    request: async ({ m, role }: { m: MemberRow; role: string }) => actionValue(await changeRole(m.userId, role)),
    success: (_, { m, role }) => `${m.name} is now ${role === "admin" ? "an" : "a"} ${role}.`,
    refresh: false,
  });
  const remove = useApiMutation({
    request: async (m: MemberRow) => actionValue(await removeFromTeam(m.userId)),
    success: (_, m) => `${m.name} was removed.`,
    failure: "caller",
    refresh: false,
  });
  const owners = members.filter((m) => m.role === "owner").length;
  const lastOwner = (m: MemberRow) => m.role === "owner" && owners <= 1;
  const mayChange = (m: MemberRow) => manager && !lastOwner(m) && (m.role !== "owner" || viewer.role === "owner");
  const mayRemove = (m: MemberRow) => mayChange(m) && m.userId !== viewer.userId;
  const roles: Role[] = viewer.role === "owner" ? ["owner", "admin", "member"] : ["admin", "member"];

  return (
    <div className="overflow-x-auto rounded-md border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Email</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Joined</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {members.map((m) => (
            <TableRow key={m.userId}>
              <TableCell className="font-medium">
                {m.name} {m.userId === viewer.userId && <Badge tone="info">You</Badge>}
              </TableCell>
              <TableCell>{m.email}</TableCell>
              <TableCell>
                {mayChange(m) ? (
                  <NativeSelect
                    aria-label={`Role of ${m.name}`}
                    value={m.role}
                    disabled={setRole.isPending}
                    onChange={(e) => setRole.mutate({ m, role: e.target.value })}
                    className="w-32"
                  >
                    {roles.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </NativeSelect>
                ) : (
                  <span className="capitalize">
                    {m.role}
                    {lastOwner(m) && <span className="text-muted-foreground normal-case"> (the last owner)</span>}
                  </span>
                )}
              </TableCell>
              <TableCell>
                <LocalTime timestamp={m.joinedAt} show="date" />
              </TableCell>
              <TableCell className="text-right">
                {mayRemove(m) && (
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm">
                        Remove
                      </Button>
                    }
                    title={`Remove ${m.name} from the organization?`}
                    description={`${m.email} loses access at once. Their account stays; invite them again to bring them back.`}
                    confirmLabel={`Remove ${m.name}`}
                    onConfirm={async () => {
                      remove.reset();
                      await remove.mutateAsync(m);
                    }}
                  >
                    <FormError>{remove.error ? problemText(remove.error) : null}</FormError>
                  </ConfirmDialog>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
