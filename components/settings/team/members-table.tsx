"use client";

import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { NativeSelect } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { changeRole, removeFromTeam } from "@/app/(dashboard)/settings/team/actions";
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
  const [pending, startTransition] = useTransition();
  const [problem, setProblem] = useState<string | null>(null);
  const owners = members.filter((m) => m.role === "owner").length;
  const lastOwner = (m: MemberRow) => m.role === "owner" && owners <= 1;
  const mayChange = (m: MemberRow) => manager && !lastOwner(m) && (m.role !== "owner" || viewer.role === "owner");
  const mayRemove = (m: MemberRow) => mayChange(m) && m.userId !== viewer.userId;
  const roles: Role[] = viewer.role === "owner" ? ["owner", "admin", "member"] : ["admin", "member"];

  function setRole(m: MemberRow, role: string) {
    startTransition(async () => {
      const result = await changeRole(m.userId, role);
      if (result.ok) toast.success(`${m.name} is now ${role === "admin" ? "an" : "a"} ${role}.`);
      else toast.error(result.message);
    });
  }

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
                    disabled={pending}
                    onChange={(e) => setRole(m, e.target.value)}
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
                      setProblem(null);
                      const result = await removeFromTeam(m.userId);
                      if (!result.ok) {
                        setProblem(result.message);
                        throw new Error(result.message);
                      }
                      toast.success(`${m.name} was removed.`);
                    }}
                  >
                    {problem && (
                      <p role="alert" className="text-sm text-destructive">
                        {problem}
                      </p>
                    )}
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
