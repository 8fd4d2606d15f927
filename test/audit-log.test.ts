import { beforeEach, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { GET as listAudit } from "@/app/v1/audit_events/route";
import { POST as createKey } from "@/app/v1/api_keys/route";
import { DELETE as revokeKey } from "@/app/v1/api_keys/[id]/route";
import { POST as createConnection } from "@/app/v1/connections/route";
import { DELETE as deleteConnection, PATCH as patchConnection } from "@/app/v1/connections/[id]/route";
import { POST as redeliver } from "@/app/v1/events/[id]/redeliver/route";
import { GET as listEvents } from "@/app/v1/events/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { POST as trackPost } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { DELETE as deleteTracker } from "@/app/v1/trackers/[id]/route";
import { POST as refreshTracker } from "@/app/v1/trackers/[id]/refresh/route";
import { POST as shareTracker } from "@/app/v1/trackers/[id]/share/route";
import { POST as createHook } from "@/app/v1/webhooks/route";
import { DELETE as deleteHook, PATCH as patchHook } from "@/app/v1/webhooks/[id]/route";
import { POST as rotate } from "@/app/v1/webhooks/[id]/rotate-secret/route";
import { resetSignInLimits } from "@/lib/api/auth-endpoint";
import { purgeAuditEvents } from "@/lib/audit/retention";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";
import { ensureApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { acceptInvitation, createInvitation, revokeInvitation } from "@/lib/auth/invitations";
import { addMember } from "@/lib/auth/memberships";
import { changeMemberRole, removeMember } from "@/lib/auth/team";
import { createConnection as createConnectionVerb } from "@/lib/connections/create-connection";
import { withTransaction, type DomainContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { auditEvents, carrierConnections, users } from "@/lib/db/schema";
import { AuditEventList } from "@/lib/schemas/audit-event";
import { call, makeOrg, orgCtx, personCtx, systemCtx } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";
import { ORIGIN, authPost, cookieFrom, newAccount, signIn, signUp } from "./session-helpers";

/** The audit log (docs/api.md, "Audit log"): who did what, written with the change, read by owners and admins. */

beforeEach(() => resetSignInLimits());

const FROM = { "X-Forwarded-For": "203.0.113.7", "User-Agent": "audit-test/1.0" };
const SECRET = "sk_live_do_not_log_me_42";
const byId = (id: string) => ({ params: { id } });

async function audit(key: string, query: Record<string, string> = {}) {
  const res = await call(listAudit, "GET", "/v1/audit_events", { key, query: { limit: "100", ...query } });
  expect(res.status).toBe(200);
  return AuditEventList.strict().parse(res.body);
}

async function actionsOf(key: string, query: Record<string, string> = {}) {
  return (await audit(key, query)).results.map((e) => e.action).reverse();
}

describe("audit rows for API key changes", () => {
  // One test per kind of resource, not one for all: under Stryker a test has 5 s (docs/testing.md, "A mutant that
  // makes a test wait"), and all of them in one took more than that on a busy machine.

  /** The rows a key wrote, oldest first; each names the key (id and name), and none holds any of the secrets. */
  async function rowsBy(key: string, keyId: string, secrets: unknown[]) {
    const list = await audit(key, { actor_type: "api_key" });
    for (const e of list.results) expect(e.actor).toEqual({ type: "api_key", id: keyId, name: "test" });
    const text = JSON.stringify(list);
    for (const secret of secrets) expect(text).not.toContain(secret);
    return list.results.reverse();
  }

  it("records connections with which fields changed, never the credentials", async () => {
    const { key, keyId } = await makeOrg();
    const h = { key, headers: FROM };
    const conn = await call(createConnection, "POST", "/v1/connections", {
      ...h,
      body: { carrier_name: "sandbox", carrier_id: "sbx-audit", credentials: { api_key: SECRET } },
    });
    expect(conn.status).toBe(201);
    const connId = conn.body.id as string;
    expect(
      (
        await call(patchConnection, "PATCH", `/v1/connections/${connId}`, {
          ...h,
          ...byId(connId),
          body: { credentials: { api_key: `${SECRET}-2` }, display_name: "Backup" },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(deleteConnection, "DELETE", `/v1/connections/${connId}`, { ...h, ...byId(connId) })).status,
    ).toBe(200);

    const rows = await rowsBy(key, keyId, [SECRET]);
    expect(rows.map((e) => e.action)).toEqual(["connection.created", "connection.updated", "connection.deleted"]);
    expect(rows.find((e) => e.action === "connection.updated")!.summary).toEqual({
      fields: ["credentials", "display_name"],
    });
  });

  it("records a shipment's creation, purchase, label download and cancellation, with the client", async () => {
    const { key, keyId } = await makeOrg();
    const h = { key, headers: FROM };
    const shipment = await createShipmentFor(key);
    expect((await purchaseFor(key, shipment)).status).toBe(200);
    expect(
      (await call(label, "GET", `/v1/shipments/${shipment.id}/label`, { ...h, ...byId(shipment.id) })).status,
    ).toBe(200);
    expect(
      (await call(cancel, "POST", `/v1/shipments/${shipment.id}/cancel`, { ...h, ...byId(shipment.id) })).status,
    ).toBe(200);

    const rows = await rowsBy(key, keyId, []);
    expect(rows.map((e) => e.action)).toEqual([
      "shipment.created",
      "shipment.purchased",
      "shipment.label_downloaded",
      "shipment.cancelled",
    ]);
    // For requests that sent them, the client's address and agent.
    expect(rows.find((e) => e.action === "shipment.cancelled")).toMatchObject({
      resource: { type: "shipment", id: shipment.id },
      client: { address: "203.0.113.7", user_agent: "audit-test/1.0" },
      request_id: expect.stringMatching(/.+/),
    });
    // No address or recipient's name reaches a summary. Read in the summaries, not the ids: a random hex id holds a
    // ZIP code like 78701 about once in a thousand runs.
    const summaries = JSON.stringify(rows.map((e) => e.summary));
    for (const personal of Object.values(shipment.recipient as Record<string, unknown>)) {
      if (typeof personal === "string" && personal.length > 3) expect(summaries).not.toContain(personal);
    }
  });

  it("records a tracker's creation, refresh, share and deletion", async () => {
    const { key, keyId } = await makeOrg();
    const h = { key, headers: FROM };
    const number = makeTrackingNumber({ purchasedAt: new Date(Date.now() - 86_400_000), scenario: 0 });
    const tracker = await call(trackPost, "POST", `/v1/trackers/sandbox/${number}`, {
      ...h,
      params: { id: "sandbox", tracking_number: number },
    });
    expect(tracker.status).toBe(201);
    const trkId = tracker.body.id as string;
    expect((await call(refreshTracker, "POST", `/v1/trackers/${trkId}/refresh`, { ...h, ...byId(trkId) })).status).toBe(
      200,
    );
    expect((await call(shareTracker, "POST", `/v1/trackers/${trkId}/share`, { ...h, ...byId(trkId) })).status).toBe(
      200,
    );
    expect((await call(deleteTracker, "DELETE", `/v1/trackers/${trkId}`, { ...h, ...byId(trkId) })).status).toBe(200);

    expect((await rowsBy(key, keyId, [])).map((e) => e.action)).toEqual([
      "tracker.created",
      "tracker.refreshed",
      "tracker.shared",
      "tracker.deleted",
    ]);
  });

  it("records webhooks (rotation and redelivery too) and API keys, never a secret or a key", async () => {
    const { key, keyId } = await makeOrg();
    const h = { key, headers: FROM };
    // An event to redeliver.
    await createShipmentFor(key);
    const hook = await call(createHook, "POST", "/v1/webhooks", {
      ...h,
      body: { url: `https://hooks.example.com/in?token=${SECRET}`, enabled_events: ["*"] },
    });
    expect(hook.status).toBe(201);
    const whkId = hook.body.id as string;
    expect(
      (await call(patchHook, "PATCH", `/v1/webhooks/${whkId}`, { ...h, ...byId(whkId), body: { description: "ERP" } }))
        .status,
    ).toBe(200);
    const rotated = await call(rotate, "POST", `/v1/webhooks/${whkId}/rotate-secret`, { ...h, ...byId(whkId) });
    expect(rotated.status).toBe(200);
    const [event] = (await call(listEvents, "GET", "/v1/events", { key, query: { limit: "1" } })).body.results;
    expect(
      (await call(redeliver, "POST", `/v1/events/${event.id}/redeliver`, { ...h, ...byId(event.id) })).status,
    ).toBe(202);
    expect((await call(deleteHook, "DELETE", `/v1/webhooks/${whkId}`, { ...h, ...byId(whkId) })).status).toBe(200);
    const made = await call(createKey, "POST", "/v1/api_keys", { ...h, body: { name: "CI" } });
    expect(made.status).toBe(201);
    expect(
      (await call(revokeKey, "DELETE", `/v1/api_keys/${made.body.id}`, { ...h, ...byId(made.body.id) })).status,
    ).toBe(200);

    const rows = await rowsBy(key, keyId, [SECRET, hook.body.secret, rotated.body.secret, made.body.key]);
    expect(rows.map((e) => e.action)).toEqual([
      "shipment.created",
      "webhook_endpoint.created",
      "webhook_endpoint.updated",
      "webhook_endpoint.secret_rotated",
      "event.redelivered",
      "webhook_endpoint.deleted",
      "api_key.created",
      "api_key.revoked",
    ]);
    expect(rows.find((e) => e.action === "webhook_endpoint.created")!.summary).toMatchObject({
      url_host: "hooks.example.com",
    });
    expect(rows.find((e) => e.action === "api_key.created")).toMatchObject({
      resource: { type: "api_key", id: made.body.id },
      summary: { source: "api", api_version: made.body.api_version },
    });
    expect(rows.find((e) => e.action === "api_key.revoked")).toMatchObject({
      resource: { type: "api_key", id: made.body.id },
      summary: {},
    });
  });

  it("filters by action, resource, actor and date, and pages by cursor", async () => {
    const { key, keyId } = await makeOrg();
    const a = await createShipmentFor(key);
    const b = await createShipmentFor(key);
    await call(cancel, "POST", `/v1/shipments/${a.id}/cancel`, { key, ...byId(a.id) });

    expect(await actionsOf(key, { resource_id: a.id })).toEqual(["shipment.created", "shipment.cancelled"]);
    expect((await audit(key, { action: "shipment.cancelled" })).results.map((e) => e.resource.id)).toEqual([a.id]);
    expect((await audit(key, { actor_id: keyId })).results).toHaveLength(3);
    expect((await audit(key, { actor_id: "key_other" })).results).toHaveLength(0);
    expect((await audit(key, { created_after: "2999-01-01" })).results).toHaveLength(0);
    expect((await audit(key, { created_before: "2999-01-01", actor_type: "api_key" })).results).toHaveLength(3);

    const first = await audit(key, { limit: "2", actor_type: "api_key" });
    expect(first.results.map((e) => e.resource.id)).toEqual([a.id, b.id]);
    expect(first.next_cursor).not.toBeNull();
    // The next page's link keeps the filters and moves the cursor on.
    expect(first.next).toBe(`/v1/audit_events?limit=2&actor_type=api_key&cursor=${first.next_cursor}`);
    const second = await audit(key, { limit: "2", actor_type: "api_key", cursor: first.next_cursor! });
    expect(second.results.map((e) => [e.action, e.resource.id])).toEqual([["shipment.created", a.id]]);
    expect(second.next_cursor).toBeNull();
    expect(second.next).toBeNull();
    // A page the rows fill exactly is the last one.
    const whole = await audit(key, { limit: "3", actor_type: "api_key" });
    expect(whole.results).toHaveLength(3);
    expect(whole.next_cursor).toBeNull();

    const bad = await call(listAudit, "GET", "/v1/audit_events", { key, query: { action: "shipment.eaten" } });
    expect(bad.status).toBe(400);
  });
});

describe("date filters", () => {
  it("read a timestamp without an offset as UTC, as a date alone is, whatever the server's time zone", async () => {
    const { key } = await makeOrg();
    const shipment = await createShipmentFor(key);
    const [row] = (await audit(key, { resource_id: shipment.id })).results;
    // The row's own instant, written as a client would type it: no offset, as every timestamp here is UTC.
    const written = new Date(row!.created_at.replace(" ", "T").replace(/\.\d+\+00:00$/, "Z"));
    const plain = (ms: number) => new Date(written.getTime() + ms).toISOString().slice(0, 19);
    const zone = process.env.TZ;
    process.env.TZ = "Pacific/Kiritimati"; // UTC+14: a server set to its operator's zone
    try {
      const around = { resource_id: shipment.id, created_after: plain(-60_000), created_before: plain(60_000) };
      expect((await audit(key, around)).results.map((e) => e.id)).toEqual([row!.id]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe("audit rows and transactions", () => {
  it("writes no row for a change that rolled back", async () => {
    const { orgId, key } = await makeOrg();
    const ctx: DomainContext = { ...(await orgCtx(orgId)), actor: { type: "api_key", id: "key_x", name: "x" } };
    await expect(
      withTransaction(ctx, async (tx) => {
        await createConnectionVerb({
          ctx: tx,
          input: {
            carrier_name: "sandbox",
            carrier_id: "rolled-back",
            display_name: null,
            test_mode: true,
            active: true,
            credentials: {},
            config: {},
          },
        });
        throw new Error("the caller's transaction fails after the change");
      }),
    ).rejects.toThrow(/caller's transaction/);
    const db = await getDb();
    expect(await db.select().from(carrierConnections).where(eq(carrierConnections.carrierId, "rolled-back"))).toEqual(
      [],
    );
    // The organization's own sandbox connection is the only connection recorded.
    expect(await actionsOf(key, { action: "connection.created", actor_type: "api_key" })).toEqual([]);
    expect((await audit(key, { action: "connection.created" })).results).toHaveLength(1);
  });

  it("records a key once: an ensured key found again and a revoked key revoked again write nothing more", async () => {
    const { orgId, key } = await makeOrg();
    const ctx = await systemCtx();
    const chosen = `bootstrap-${orgId}-${"x".repeat(32)}`;
    const first = await ensureApiKey({ ctx, orgId, name: "Bootstrap key", key: chosen });
    await ensureApiKey({ ctx, orgId, name: "Bootstrap key", key: chosen });
    await revokeApiKey({ ctx, keyId: first.id, orgId });
    await revokeApiKey({ ctx, keyId: first.id, orgId });
    const rows = (await audit(key, { resource_id: first.id })).results.reverse();
    expect(rows.map((e) => [e.action, e.actor, e.summary])).toEqual([
      ["api_key.created", { type: "system", id: null, name: "test" }, { source: "bootstrap" }],
      ["api_key.revoked", { type: "system", id: null, name: "test" }, {}],
    ]);
  });

  it("records the system's own changes with the job's name", async () => {
    const { orgId, key } = await makeOrg();
    const rows = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.orgId, orgId));
    // makeOrg: the organization's sandbox connection and its first key, made by the "test" job.
    expect(rows.map((r) => [r.action, r.actorType, r.actorName, r.summary]).sort()).toEqual([
      ["api_key.created", "system", "test", { source: "api", api_version: expect.any(String) }],
      ["connection.created", "system", "test", expect.objectContaining({ carrier: "sandbox", credentials: false })],
    ]);
    expect(rows.every((r) => r.clientAddress === null)).toBe(true);
    expect((await audit(key)).results).toHaveLength(2);
  });
});

async function person(name: string, address: string) {
  const account = newAccount(name);
  await signUp(account, address);
  const [row] = await (await getDb()).select({ id: users.id }).from(users).where(eq(users.email, account.email));
  return { ...account, id: row!.id };
}

describe("audit rows for the team and sign-ins", () => {
  it("records invitations, role changes and removals as the person who made them", async () => {
    const { orgId, key } = await makeOrg();
    const owner = await person("Owner", "10.31.0.1");
    const joiner = await person("Joiner", "10.31.0.2");
    await addMember({ ctx: await systemCtx(), orgId, email: owner.email, role: "owner" });
    const ctx: DomainContext = {
      ...(await orgCtx(orgId)),
      actor: { type: "user", id: owner.id },
      origin: { address: "198.51.100.4", userAgent: "Firefox" },
    };
    const { invitation: revoked } = await createInvitation({ ctx, email: "someone@example.test", role: "member" });
    await revokeInvitation({ ctx, id: revoked.id });
    const { invitation, token } = await createInvitation({ ctx, email: joiner.email, role: "member" });
    await acceptInvitation({ ctx: await personCtx(joiner), token });
    await changeMemberRole({ ctx, userId: joiner.id, role: "admin" });
    await removeMember({ ctx, userId: joiner.id });

    const list = (await audit(key, { actor_type: "user" })).results.reverse();
    expect(list.map((e) => [e.action, e.actor.id, e.resource.id])).toEqual([
      ["invitation.created", owner.id, revoked.id],
      ["invitation.revoked", owner.id, revoked.id],
      ["invitation.created", owner.id, invitation.id],
      ["invitation.accepted", joiner.id, invitation.id],
      ["member.role_changed", owner.id, joiner.id],
      ["member.removed", owner.id, joiner.id],
    ]);
    expect(list[0]!.client).toEqual({ address: "198.51.100.4", user_agent: "Firefox" });
    expect(list.map((e) => e.summary)).toEqual([
      { role: "member" },
      { role: "member" },
      { role: "member" },
      { role: "member" },
      { from: "member", to: "admin" },
      { role: "admin" },
    ]);
    // Refused changes write nothing: the last owner stays, and nobody removes themself.
    await expect(removeMember({ ctx, userId: owner.id })).rejects.toThrow();
    await expect(changeMemberRole({ ctx, userId: owner.id, role: "member" })).rejects.toThrow(/last owner/);
    expect((await audit(key, { actor_type: "user" })).results).toHaveLength(6);
    expect(JSON.stringify(list)).not.toMatch(/example\.test/);
  });

  it("writes no role change when the role set is the one the member has", async () => {
    const { orgId, key } = await makeOrg();
    const owner = await person("Owner", "10.31.3.1");
    const admin = await person("Admin", "10.31.3.2");
    await addMember({ ctx: await systemCtx(), orgId, email: owner.email, role: "owner" });
    await addMember({ ctx: await systemCtx(), orgId, email: admin.email, role: "admin" });
    const ctx: DomainContext = { ...(await orgCtx(orgId)), actor: { type: "user", id: owner.id } };
    // Setting the role a member already has changes nothing: the log records changes, not requests.
    await changeMemberRole({ ctx, userId: admin.id, role: "admin" });
    expect((await audit(key, { action: "member.role_changed" })).results).toEqual([]);
  });

  it("records sign-ins that succeed and fail, in the account's organization", async () => {
    const someone = await person("Signer", "10.31.1.1");
    const signedIn = await signIn(someone, "192.0.2.10");
    expect(signedIn.status).toBe(200);
    const wrong = await signIn({ ...someone, password: "wrong password" }, "192.0.2.11");
    expect(wrong.status).toBe(401);
    // An address without an account belongs to no organization: nothing is written anywhere.
    const before = (await (await getDb()).select().from(auditEvents)).length;
    await signIn({ email: "nobody-here@example.test", password: "whatever it is" }, "192.0.2.12");
    // Nor for a sign-in refused before any password was checked: another site's page, an email that is not one.
    const elsewhere = { address: "192.0.2.13", origin: "http://evil.test" };
    expect((await authPost("/sign-in/email", someone, elsewhere)).status).toBe(403);
    const spaced = { ...someone, email: `${someone.email} ` };
    expect((await authPost("/sign-in/email", spaced, { address: "192.0.2.14" })).status).toBe(400);

    const db = await getDb();
    expect((await db.select().from(auditEvents)).length).toBe(before);
    const rows = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.resourceId, someone.id))
      .orderBy(asc(auditEvents.seq));
    // Signing up placed the account in an organization, then signed in separately (the sign-up answer is the same
    // for a taken address): those are the first two.
    expect(rows.map((r) => [r.action, r.actorType, r.actorId, r.clientAddress])).toEqual([
      ["member.added", "user", someone.id, "10.31.1.1"],
      ["user.signed_in", "user", someone.id, "10.31.1.1"],
      ["user.signed_in", "user", someone.id, "192.0.2.10"],
      ["user.sign_in_failed", "anonymous", null, "192.0.2.11"],
    ]);
    // Each row names its request, the id its answer carried.
    expect(rows.every((r) => r.requestId?.startsWith("req_"))).toBe(true);
    expect(rows[2]!.requestId).toBe(signedIn.headers.get("x-request-id"));
    expect(rows[3]!.requestId).toBe(wrong.headers.get("x-request-id"));
    expect(cookieFrom(signedIn)).not.toBe("");
  });
});

describe("who may read the audit log", () => {
  it("shows an organization only its own rows", async () => {
    const a = await makeOrg("A");
    const b = await makeOrg("B");
    const shipment = await createShipmentFor(a.key);
    expect((await audit(b.key, { resource_id: shipment.id })).results).toEqual([]);
    expect((await audit(b.key)).results.every((e) => e.actor.id !== a.keyId)).toBe(true);
    expect((await audit(a.key, { resource_id: shipment.id })).results).toHaveLength(1);
  });

  it("refuses a member and answers an admin", async () => {
    const { orgId } = await makeOrg();
    const member = await person("Member", "10.31.2.1");
    const admin = await person("Admin", "10.31.2.2");
    await addMember({ ctx: await systemCtx(), orgId, email: member.email, role: "member" });
    await addMember({ ctx: await systemCtx(), orgId, email: admin.email, role: "admin" });
    const asPerson = async (who: { email: string; password: string }, address: string) => {
      const cookie = cookieFrom(await signIn(who, address));
      return call(listAudit, "GET", "/v1/audit_events", { headers: { Cookie: cookie, Origin: ORIGIN } });
    };
    const refused = await asPerson(member, "10.31.2.3");
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain("forbidden");
    const allowed = await asPerson(admin, "10.31.2.4");
    expect(allowed.status).toBe(200);
    expect(allowed.body.results.map((e: { action: string }) => e.action)).toContain("user.signed_in");
  });
});

describe("retention", () => {
  it("prunes rows older than the retention and keeps the rest", async () => {
    const { orgId } = await makeOrg();
    const db = await getDb();
    const now = new Date();
    const old = new Date(now.getTime() - 366 * 86_400_000);
    await db.insert(auditEvents).values({
      id: `aud_old_${orgId}`,
      orgId,
      createdAt: old,
      actorType: "system",
      actorName: "test",
      action: "connection.created",
      resourceType: "connection",
      resourceId: "car_old",
    });
    const purged = await purgeAuditEvents({ ctx: await systemCtx(), now });
    expect(purged).toBeGreaterThanOrEqual(1);
    const left = await db.select().from(auditEvents).where(eq(auditEvents.orgId, orgId));
    expect(left.map((r) => r.resourceId)).not.toContain("car_old");
    expect(left).toHaveLength(2);
    // A shorter retention (AUDIT_RETENTION_DAYS) takes the younger rows too.
    await purgeAuditEvents({ ctx: await systemCtx(), now: new Date(now.getTime() + 2 * 86_400_000), retentionDays: 1 });
    expect(await db.select().from(auditEvents).where(eq(auditEvents.orgId, orgId))).toEqual([]);
  });

  it("prunes in batches: oldest first, at most so many per run, stopping at the first batch not full", async () => {
    const { orgId } = await makeOrg();
    const db = await getDb();
    const now = new Date();
    const aged = (days: number, n: number) => ({
      id: `aud_${n}_${orgId}`,
      orgId,
      createdAt: new Date(now.getTime() - days * 86_400_000),
      actorType: "system" as const,
      actorName: "test",
      action: "connection.created" as const,
      resourceType: "connection",
      resourceId: `car_${n}`,
    });
    // Five rows past a year, the oldest first, and one just inside it.
    await db.insert(auditEvents).values([...[400, 399, 398, 397, 396].map((d, i) => aged(d, i)), aged(364, 9)]);
    const left = async () =>
      (await db.select().from(auditEvents).where(eq(auditEvents.orgId, orgId)))
        .map((r) => r.resourceId)
        .filter((id) => /^car_\d$/.test(id))
        .sort();
    const ctx = await systemCtx();
    // Two full batches of two and no third: the youngest of the five waits for the next run.
    expect(await purgeAuditEvents({ ctx, now, retentionDays: 365, batchSize: 2, maxBatches: 2 })).toBe(4);
    expect(await left()).toEqual(["car_4", "car_9"]);
    // The next run's first batch is not full: it ends there.
    expect(await purgeAuditEvents({ ctx, now, retentionDays: 365, batchSize: 2, maxBatches: 20 })).toBe(1);
    expect(await left()).toEqual(["car_9"]);
  });
});
