import { describe, expect, it } from "vitest";
import { auditQueryFrom, auditUrl } from "@/components/settings/audit/search-params";

/** The Settings → Audit log page reads its filters with the API's own schema and links pages by cursor. */
describe("the audit page's URL", () => {
  it("reads the filters the API knows and keeps them for the next page", () => {
    const { query, raw, invalid } = auditQueryFrom({
      action: "shipment.created",
      resource_id: ["shp_1", "shp_2"],
      created_after: "2026-11-01",
      cursor: "42",
      unknown: "x",
    });
    expect(invalid).toBe(false);
    expect(query).toMatchObject({ limit: 50, action: ["shipment.created"], resource_id: "shp_1", cursor: "42" });
    expect(raw).toEqual({
      action: "shipment.created",
      resource_id: "shp_1",
      created_after: "2026-11-01",
      cursor: "42",
    });
    expect(auditUrl({ ...raw, cursor: "7" })).toBe(
      "/settings/audit?action=shipment.created&resource_id=shp_1&created_after=2026-11-01&cursor=7",
    );
    expect(auditUrl({})).toBe("/settings/audit");
  });

  it("shows the whole log, saying so, when a filter is not valid", () => {
    const { query, invalid } = auditQueryFrom({ action: "shipment.eaten", cursor: "not-a-cursor" });
    expect(invalid).toBe(true);
    expect(query).toEqual({ limit: 50 });
  });

  it("shows the whole log, saying so, when a filter holds a NUL, rather than send it to the database", () => {
    // Postgres cannot compare text with a NUL in it: the query fails, and the page with it.
    for (const name of ["actor_id", "resource_id"]) {
      const { query, invalid } = auditQueryFrom({ [name]: "key_\u0000x" });
      expect(invalid, name).toBe(true);
      expect(query).toEqual({ limit: 50 });
    }
  });
});
