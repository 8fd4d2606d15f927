import type { Metadata } from "next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ChangePasswordForm } from "@/components/settings/change-password-form";
import { SessionList } from "@/components/settings/session-list";
import { SettingsHeader } from "@/components/settings/settings-header";
import { sessionsOf } from "@/lib/auth/sessions";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Account" };

export default async function AccountSettings() {
  const { user, org, role, sessionId, ctx } = await requireSession();
  const sessions = await sessionsOf(ctx.db, user.id, sessionId);
  return (
    <div className="grid gap-6">
      <SettingsHeader current="account" role={role} />
      <Card>
        <CardHeader>
          <CardTitle>{user.name}</CardTitle>
          <CardDescription>
            {user.email} · {role} of {org.name}
          </CardDescription>
        </CardHeader>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Password</CardTitle>
        </CardHeader>
        <CardContent>
          <ChangePasswordForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sessions</CardTitle>
          <CardDescription>Where you are signed in. A session lasts 7 days from its last use each day.</CardDescription>
        </CardHeader>
        <CardContent>
          <SessionList sessions={sessions} />
        </CardContent>
      </Card>
    </div>
  );
}
