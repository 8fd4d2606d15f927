import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuditFilters } from "@/components/settings/audit/audit-filters";
import { AuditTable } from "@/components/settings/audit/audit-table";
import type { AuditEvent } from "@/lib/schemas/audit-event";

/** The audit page's parts as the server renders them (the browser journey is in e2e/settings.spec.ts). */
const event = (over: Partial<AuditEvent>): AuditEvent => ({
  id: "aud_1",
  created_at: "2026-11-27 10:00:00.000000+00:00",
  actor: { type: "user", id: "usr_1", name: null },
  action: "member.role_changed",
  resource: { type: "member", id: "usr_2" },
  client: { address: "198.51.100.4", user_agent: "Firefox" },
  request_id: "req_1",
  summary: { from: "member", to: "admin" },
  ...over,
});

describe("the audit page", () => {
  it("names teammates, keys and jobs, shows what changed and links the older page with the filters", () => {
    const html = renderToStaticMarkup(
      createElement(AuditTable, {
        events: [
          event({}),
          event({ id: "aud_2", actor: { type: "api_key", id: "key_1", name: "CI" }, action: "shipment.created" }),
          event({
            id: "aud_3",
            actor: { type: "system", id: null, name: "in_process" },
            client: { address: null, user_agent: null },
          }),
          event({ id: "aud_4", actor: { type: "user", id: "usr_gone", name: null } }),
        ],
        members: [
          { userId: "usr_1", name: "Ada Admin", email: "ada@example.test", role: "owner", joinedAt: new Date() },
        ],
        nextCursor: "41",
        filters: { action: "member.role_changed", cursor: "99" },
      }),
    );
    expect(html).toContain("Ada Admin");
    expect(html).toContain("API key “CI”");
    expect(html).toContain("System (in_process)");
    expect(html).toContain("Former member usr_gone");
    expect(html).toContain("from: member · to: admin");
    expect(html).toContain('href="/settings/audit?action=member.role_changed&amp;cursor=41"');
    expect(html).toContain('href="/settings/audit?action=member.role_changed"');
    expect(html).not.toContain("ada@example.test");
  });

  it("says when nothing matches, and keeps the filters in the form", () => {
    expect(
      renderToStaticMarkup(createElement(AuditTable, { events: [], members: [], nextCursor: null, filters: {} })),
    ).toContain("Nothing recorded");
    const form = renderToStaticMarkup(
      createElement(AuditFilters, { values: { resource_id: "shp_9", action: "shipment.created" }, invalid: true }),
    );
    expect(form).toContain('value="shp_9"');
    expect(form).toMatch(/<option value="shipment.created" selected="">/);
    expect(form).toContain('role="alert"');
  });
});
