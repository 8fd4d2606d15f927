import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { ForbiddenNotice } from "@/components/settings/forbidden-notice";
import { SettingsHeader } from "@/components/settings/settings-header";
import { pageOfApiKeys } from "@/lib/auth/api-keys";
import { roleAllows } from "@/lib/auth/roles";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysSettings() {
  const { ctx, role } = await requireSession();
  const allowed = roleAllows(role, "admin");
  const keys = allowed ? await pageOfApiKeys({ ctx, limit: 100, offset: 0 }) : null;
  return (
    <div className="grid gap-6">
      <SettingsHeader current="api-keys" role={role} />
      {keys ? <ApiKeysPanel keys={keys.results} /> : <ForbiddenNotice what="API keys" role={role} />}
    </div>
  );
}
