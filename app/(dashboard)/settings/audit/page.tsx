import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { AuditFilters } from "@/components/settings/audit/audit-filters";
import { AuditTable } from "@/components/settings/audit/audit-table";
import { auditQueryFrom } from "@/components/settings/audit/search-params";
import { ForbiddenNotice } from "@/components/settings/forbidden-notice";
import { SettingsHeader } from "@/components/settings/settings-header";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { roleAllows } from "@/lib/auth/roles";
import { listMembers } from "@/lib/auth/team";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditSettings({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { ctx, role } = await requireSession();
  if (!roleAllows(role, "admin")) {
    return (
      <div className="grid grid-cols-1 gap-6">
        <SettingsHeader current="audit" role={role} />
        <ForbiddenNotice what="the audit log" role={role} />
      </div>
    );
  }
  const { query, raw, invalid } = auditQueryFrom(await searchParams);
  const [page, members] = await Promise.all([listAuditEvents({ ctx, filters: query }), listMembers(ctx)]);
  return (
    <div className="grid grid-cols-1 gap-6">
      <SettingsHeader current="audit" role={role} />
      <AuditFilters values={raw} invalid={invalid} />
      <AuditTable events={page.results} members={members} nextCursor={page.nextCursor} filters={raw} />
    </div>
  );
}
