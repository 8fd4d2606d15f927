import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Two instances of the service (test/instance-child.ts: real HTTP servers in processes of their own, started as the
 * app starts) on one Postgres, as behind a load balancer: the per-key, per-address and per-account sign-in limits are
 * the deployment's, a purchase sent to both buys one label, a key revoked through one is refused by both within the
 * documented 5 s, and the audit log has one row per action. Postgres only: the embedded database is one process's.
 */
const LIMIT = 200;
const ADDRESS_LIMIT = 60;
const SIGN_IN_LIMIT = 40; // per account and hour: a slice of 2
// docs/api.md, "Rate limiting": with two instances at most one slice (5 % of the limit) over it.
const OVERSHOOT = 0.05;
const REVOCATION_SECONDS = 5; // docs/api.md, "API keys and organizations": the key lookup cache

interface Instance {
  base: string;
  child: ChildProcess;
}

function startInstance(): Promise<Instance> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "test/instance-child.ts"], {
    env: {
      ...process.env,
      LOG_LEVEL: "silent",
      SKIP_MIGRATIONS: "1",
      TRACKER_REFRESH: "off",
      WEBHOOK_DELIVERY: "off",
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: String(ADDRESS_LIMIT),
      SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR: String(SIGN_IN_LIMIT),
      TRUST_PROXY: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("READY ")) resolve({ base: `http://127.0.0.1:${line.slice(6)}`, child });
    });
    child.on("exit", () => reject(new Error(`an instance exited before it was ready: ${stderr}`)));
  });
}

async function request(instance: Instance, method: string, path: string, key: string, init: RequestInit = {}) {
  const res = await fetch(instance.base + path, {
    ...init,
    method,
    headers: { Authorization: `Token ${key}`, "Content-Type": "application/json", ...init.headers },
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

describe.skipIf(!process.env.DATABASE_URL)("two instances on one Postgres", () => {
  let instances: Instance[] = [];
  beforeAll(async () => {
    // Opened here first: the database this file was given is migrated before the instances start.
    const { getDb } = await import("@/lib/db/client");
    await getDb();
    instances = await Promise.all([startInstance(), startInstance()]);
  }, 60_000);
  afterAll(() => {
    for (const { child } of instances) child.kill("SIGKILL");
  });

  it("hold one key to its limit across both, within the stated overshoot", { timeout: 60_000 }, async () => {
    const { makeOrg } = await import("./helpers");
    const { key } = await makeOrg();
    const started = Date.now();
    let admitted = 0;
    let refused = 0;
    // Eight clients on each instance, 1.5 × the limit each instance: a client spread over both by a load balancer.
    await Promise.all(
      instances.flatMap((instance) =>
        Array.from({ length: 8 }, async () => {
          for (let i = 0; i < (LIMIT * 1.5) / 8; i++) {
            const { status } = await request(instance, "GET", "/v1/shipments/shp_missing", key);
            if (status === 429) refused++;
            else admitted++;
          }
        }),
      ),
    );
    const elapsed = Date.now() - started;
    // What one bucket would admit in that time: the burst and what refilled meanwhile.
    const allowed = LIMIT + (LIMIT * elapsed) / 60_000;
    const overshoot = (admitted - allowed) / LIMIT;
    console.log(
      `two instances, limit ${LIMIT}/min: ${admitted} admitted, ${refused} refused in ${elapsed} ms; ` +
        `one bucket allows ${allowed.toFixed(1)}; overshoot ${(overshoot * 100).toFixed(1)} % of the limit`,
    );
    expect(admitted).toBeGreaterThanOrEqual(LIMIT);
    expect(overshoot).toBeLessThanOrEqual(OVERSHOOT);
  });

  it("hold one client address to its limit across both when it has no valid key", { timeout: 60_000 }, async () => {
    const started = Date.now();
    let admitted = 0;
    // Guesses from one address, spread over both instances: 401 while the address has tokens, then 429.
    await Promise.all(
      instances.flatMap((instance) =>
        Array.from({ length: 4 }, async (_, c) => {
          for (let i = 0; i < (ADDRESS_LIMIT * 1.5) / 4; i++) {
            const { status } = await request(instance, "GET", "/v1/shipments/shp_missing", `shw_guess${c}x${i}`, {
              headers: { "X-Forwarded-For": "198.51.100.7" },
            });
            if (status === 401) admitted++;
            else expect(status).toBe(429);
          }
        }),
      ),
    );
    const allowed = ADDRESS_LIMIT + (ADDRESS_LIMIT * (Date.now() - started)) / 60_000;
    console.log(
      `two instances, ${ADDRESS_LIMIT}/min per address: ${admitted} key lookups where one bucket allows ` +
        `${allowed.toFixed(1)}; overshoot ${(((admitted - allowed) / ADDRESS_LIMIT) * 100).toFixed(1)} %`,
    );
    expect(admitted).toBeGreaterThanOrEqual(ADDRESS_LIMIT);
    expect((admitted - allowed) / ADDRESS_LIMIT).toBeLessThanOrEqual(OVERSHOOT);
  });

  it(
    "hold one account's sign-in attempts to its limit across both, from many addresses",
    { timeout: 60_000 },
    async () => {
      const started = Date.now();
      // An email nobody has: the attempts are counted by the email named, whether or not it has an account.
      const email = `guessed-${Date.now()}@example.com`;
      let admitted = 0;
      let attempt = 0;
      // A guesser spreading 1.5 × the limit over both instances, each attempt from an address of its own (under the
      // per-address limit), so only the per-account limit can refuse.
      await Promise.all(
        instances.flatMap((instance) =>
          Array.from({ length: 4 }, async () => {
            for (let i = 0; i < (SIGN_IN_LIMIT * 1.5) / 8; i++) {
              const n = attempt++;
              const res = await fetch(`${instance.base}/api/auth/sign-in/email`, {
                method: "POST",
                headers: {
                  "Content-Type": "application/json",
                  Origin: instance.base,
                  "X-Forwarded-For": `192.0.2.${n}`,
                },
                body: JSON.stringify({ email, password: `wrong-password-${n}` }),
              });
              if (res.status === 401) admitted++;
              else expect(res.status).toBe(429);
            }
          }),
        ),
      );
      const allowed = SIGN_IN_LIMIT + (SIGN_IN_LIMIT * (Date.now() - started)) / 3_600_000;
      console.log(
        `two instances, ${SIGN_IN_LIMIT}/h per account: ${admitted} sign-in attempts checked where one bucket allows ` +
          `${allowed.toFixed(1)}; overshoot ${(((admitted - allowed) / SIGN_IN_LIMIT) * 100).toFixed(1)} %`,
      );
      expect(admitted).toBeGreaterThanOrEqual(SIGN_IN_LIMIT);
      expect((admitted - allowed) / SIGN_IN_LIMIT).toBeLessThanOrEqual(OVERSHOOT);
    },
  );

  it("buy one label when a purchase reaches both at once", { timeout: 60_000 }, async () => {
    const { and, eq } = await import("drizzle-orm");
    const { getDb } = await import("@/lib/db/client");
    const { auditEvents, carrierLedger, labels } = await import("@/lib/db/schema");
    const { makeOrg } = await import("./helpers");
    const { addSandbox, createShipmentFor } = await import("./factories");
    const { key, keyId, orgId } = await makeOrg();
    // The carrier takes its time, so the second purchase arrives while the first holds the shipment.
    const conn = await addSandbox(key, "two-instances", { latency_ms: 150 });
    const shipment = await createShipmentFor(key, { carrier_ids: [conn.id] });
    const answers = await Promise.all(
      instances.map((instance, i) =>
        request(instance, "POST", `/v1/shipments/${shipment.id}/purchase`, key, {
          headers: { "Idempotency-Key": `two-instances-${i}` },
          body: JSON.stringify({ selected_rate_id: shipment.rates[0]!.id }),
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(1);

    const db = await getDb();
    const sold = await db
      .select()
      .from(carrierLedger)
      .where(and(eq(carrierLedger.connectionId, conn.id), eq(carrierLedger.shipmentKey, shipment.id)));
    expect(sold).toHaveLength(1);
    expect(await db.select().from(labels).where(eq(labels.shipmentId, shipment.id))).toHaveLength(1);
    // One purchase, one row, by the key that made it.
    const audited = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orgId, orgId), eq(auditEvents.action, "shipment.purchased")));
    expect(audited.map((e) => [e.resourceId, e.actorType, e.actorId])).toEqual([[shipment.id, "api_key", keyId]]);
  });

  it(`refuse a key revoked through one within ${REVOCATION_SECONDS} s on both`, { timeout: 60_000 }, async () => {
    const { and, eq } = await import("drizzle-orm");
    const { getDb } = await import("@/lib/db/client");
    const { auditEvents } = await import("@/lib/db/schema");
    const { createApiKey } = await import("@/lib/auth/api-keys");
    const { makeOrg, systemCtx } = await import("./helpers");
    const { key, keyId, orgId } = await makeOrg();
    const doomed = await createApiKey({ ctx: await systemCtx(), orgId, name: "doomed", source: "api" });
    // Both instances know the key as valid (their lookup caches hold it): the id is refused, not the key.
    for (const instance of instances) {
      expect((await request(instance, "GET", "/v1/shipments/shp_missing", doomed.key)).status).toBe(400);
    }
    const [a, b] = instances as [Instance, Instance];
    const revokedAt = Date.now();
    expect((await request(a, "DELETE", `/v1/api_keys/${doomed.id}`, key)).status).toBe(200);
    // Through the instance that revoked it: at once.
    expect((await request(a, "GET", "/v1/shipments/shp_missing", doomed.key)).status).toBe(401);
    // The other learns it when its cached lookup expires: no request it accepts was sent later than that.
    let lastAccepted = 0;
    let refused = false;
    while (!refused && Date.now() - revokedAt < (REVOCATION_SECONDS + 2) * 1000) {
      const sent = Date.now() - revokedAt;
      refused = (await request(b, "GET", "/v1/shipments/shp_missing", doomed.key)).status === 401;
      if (!refused) lastAccepted = sent;
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(`a key revoked through one instance: the other accepted it last ${lastAccepted} ms after`);
    expect(refused).toBe(true);
    expect(lastAccepted).toBeLessThanOrEqual(REVOCATION_SECONDS * 1000);

    const db = await getDb();
    const audited = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orgId, orgId), eq(auditEvents.action, "api_key.revoked")));
    expect(audited.map((e) => [e.resourceId, e.actorType, e.actorId])).toEqual([[doomed.id, "api_key", keyId]]);
  });
});
