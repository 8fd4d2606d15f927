import type { Metadata } from "next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SettingsHeader } from "@/components/settings/settings-header";
import { InvitationsList } from "@/components/settings/team/invitations-list";
import { InviteDialog } from "@/components/settings/team/invite-dialog";
import { MembersTable } from "@/components/settings/team/members-table";
import { listOpenInvitations } from "@/lib/auth/invitations";
import { roleAllows } from "@/lib/auth/roles";
import { listMembers } from "@/lib/auth/team";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Team" };

export default async function TeamSettings() {
  const { ctx, role, user, org } = await requireSession();
  const manager = roleAllows(role, "admin");
  const [members, invitations] = await Promise.all([
    listMembers(ctx),
    manager ? listOpenInvitations(ctx) : Promise.resolve([]),
  ]);
  return (
    <div className="grid gap-6">
      <SettingsHeader current="team" role={role} />
      <section aria-labelledby="members-heading" className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h2 id="members-heading" className="text-lg font-semibold">
              People in {org.name}
            </h2>
            {!manager && (
              <p className="text-sm text-muted-foreground">
                You are a {role}: an owner or admin invites people and changes roles.
              </p>
            )}
          </div>
          {manager && <InviteDialog roles={role === "owner" ? ["member", "admin", "owner"] : ["member", "admin"]} />}
        </div>
        <MembersTable
          members={members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }))}
          viewer={{ userId: user.id, role }}
        />
      </section>
      {manager && (
        <Card>
          <CardHeader>
            <CardTitle>Open invitations</CardTitle>
            <CardDescription>Links not used yet. Each works once, for 7 days.</CardDescription>
          </CardHeader>
          <CardContent>
            <InvitationsList
              manager={manager}
              invitations={invitations.map((i) => ({ ...i, expiresAt: i.expiresAt.toISOString() }))}
            />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
