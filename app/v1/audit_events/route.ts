import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { otherMethods } from "@/lib/api/fallback";
import { cursorPaginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { AuditEventList, AuditEventListQuery } from "@/lib/schemas/audit-event";

export const GET = withApi(
  {
    route: "/v1/audit_events",
    role: "admin",
    query: AuditEventListQuery,
    doc: {
      id: "listAuditEvents",
      summary: "List the organization's audit log, newest first (owners and admins)",
      response: AuditEventList,
      responses: { 200: "A page of audit events" },
    },
  },
  async ({ ctx, query, req }) => {
    const { results, nextCursor } = await listAuditEvents({ ctx, filters: query });
    return { body: cursorPaginate(req, nextCursor, results) };
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
