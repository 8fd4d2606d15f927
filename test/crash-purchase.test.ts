import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it, vi } from "vitest";

/**
 * A process killed between the carrier's answer and the commit that records it (test/crash-child.ts), on the
 * embedded database in a folder of its own: the purchases and the cancellation it left behind are retried from this
 * process, with the same Idempotency-Key and with others, before and after the claims and key locks expire (the
 * clock is moved, only `Date` is faked). The sandbox's books say what the carrier really sold.
 */
delete process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), "shipwell-crash-"));
process.env.DATA_DIR = dataDir;
delete process.env.SKIP_MIGRATIONS; // a fresh folder: migrated on first open

afterAll(async () => {
  vi.useRealTimers();
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Operation {
  kind: "purchase" | "cancel";
  id: string;
  rateId?: string;
  idempotencyKey: string;
}

/** Runs the child until every operation got its carrier answer, then SIGKILLs it; what the carrier answered. */
async function crashAfterCarrierAnswers(key: string, operations: Operation[]): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "test/crash-child.ts", JSON.stringify({ key, operations })],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  const ready = new Promise<string[]>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line.startsWith("READY ")) resolve(JSON.parse(line.slice(6)) as string[]);
    });
    void exited.then(() => reject(new Error(`the child exited before READY: ${stderr}`)));
  });
  const answers = await ready;
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  return answers;
}

describe("a process killed between the carrier's answer and the commit (embedded database, two processes)", () => {
  it(
    "never buys a second label unasked, settles what it can, and cancels what it left",
    { timeout: 180_000 },
    async () => {
      const { getDb, closeDb } = await import("@/lib/db/client");
      const { call, makeOrg } = await import("./helpers");
      const { addSandbox, createShipmentFor, purchaseFor } = await import("./factories");
      const { POST: purchase } = await import("@/app/v1/shipments/[id]/purchase/route");
      const { POST: cancel } = await import("@/app/v1/shipments/[id]/cancel/route");
      const { GET: getShipment } = await import("@/app/v1/shipments/[id]/route");
      const { sandboxAdapter } = await import("@/lib/carriers/sandbox/adapter");
      const { carrierLedger } = await import("@/lib/db/schema");
      const { eq } = await import("drizzle-orm");

      const { key } = await makeOrg();
      // `books` can look its labels up; `blind` cannot (its lookups fail), so only the client can decide there.
      const books = await addSandbox(key, "books");
      const blind = await addSandbox(key, "blind", { fail_operations: ["lookup"] });
      const recovered = await createShipmentFor(key, { carrier_ids: [books.id] });
      const undecided = await createShipmentFor(key, { carrier_ids: [blind.id] });
      // A sandbox label can be voided until pickup (minutes at the default pace); this one is never picked up.
      const abandoned = await createShipmentFor(key, {
        carrier_ids: [books.id],
        options: { sandbox_scenario: "pending" },
      });
      const voided = await createShipmentFor(key, { carrier_ids: [books.id] });
      const boughtBefore = (await purchaseFor(key, voided)).body.shipment.tracking_number as string;
      // The embedded database is one process's: hand the folder over.
      await closeDb();

      const answers = await crashAfterCarrierAnswers(key, [
        { kind: "purchase", id: recovered.id, rateId: recovered.rates[0]!.id, idempotencyKey: "crash-1" },
        { kind: "purchase", id: undecided.id, rateId: undecided.rates[0]!.id, idempotencyKey: "crash-2" },
        { kind: "purchase", id: abandoned.id, rateId: abandoned.rates[0]!.id, idempotencyKey: "crash-3" },
        { kind: "cancel", id: voided.id, idempotencyKey: "crash-4" },
      ]);
      expect(answers.filter((a) => a.startsWith("ship "))).toHaveLength(3);
      expect(answers).toContain(`void ${boughtBefore}`);

      const db = await getDb();
      const sold = async (connectionId: string) =>
        db.select().from(carrierLedger).where(eq(carrierLedger.connectionId, connectionId));
      expect(await sold(books.id)).toHaveLength(3); // voided's label, and the two the child bought
      expect(await sold(blind.id)).toHaveLength(1);
      const ship = vi.spyOn(sandboxAdapter, "ship");
      const show = async (id: string) =>
        (await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } })).body;
      const buy = (s: { id: string; rates: { id: string }[] }, idempotencyKey: string, extra = {}) =>
        call(purchase, "POST", `/v1/shipments/${s.id}/purchase`, {
          key,
          params: { id: s.id },
          headers: { "Idempotency-Key": idempotencyKey },
          body: { selected_rate_id: s.rates[0]!.id, ...extra },
        });

      // What the dead process left: created shipments that say their purchase's outcome is unknown.
      const left = await show(recovered.id);
      expect(left).toMatchObject({ status: "created", label: null, tracking_number: null });
      expect(left.meta.purchase_attempt).toMatchObject({ carrier_connection_id: books.id });
      expect(left.messages).toContainEqual(
        expect.objectContaining({ code: "purchase_outcome_unknown", level: "error" }),
      );
      // And a purchased shipment whose label may be voided: not handed out.
      expect(await show(voided.id)).toMatchObject({ status: "purchased", label: null });

      // Before anything expires: the same key is still locked, another key meets the live claim.
      expect((await buy(recovered, "crash-1")).body.errors[0].code).toBe("idempotency_in_progress");
      const early = await buy(recovered, "retry-1");
      expect(early.status).toBe(409);
      expect(early.body.errors[0]).toMatchObject({
        code: "state_conflict",
        message: expect.stringMatching(/held until/),
      });

      // An hour later every claim and key lock has expired.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 60 * 60 * 1000);

      // Where the carrier can look it up: the same key runs again and records the label the child bought.
      const again = await buy(recovered, "crash-1");
      expect(again.status).toBe(200);
      expect(again.body.messages).toEqual([expect.objectContaining({ code: "purchase_recovered" })]);
      expect(answers).toContain(`ship ${again.body.shipment.tracking_number}`);
      expect((await show(recovered.id)).label).not.toBeNull();

      // Where it cannot: 409 with the same key and with another, until the client decides.
      for (const idempotencyKey of ["crash-2", "retry-2"]) {
        const res = await buy(undecided, idempotencyKey);
        expect(res.status).toBe(409);
        expect(res.body.errors[0].code).toBe("purchase_outcome_unknown");
      }
      expect(ship).not.toHaveBeenCalled();
      expect(await sold(blind.id)).toHaveLength(1);
      const confirmed = await buy(undecided, "confirm-2", { confirm_rebuy: true });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.shipment.status).toBe("purchased");
      expect(ship).toHaveBeenCalledTimes(1);
      expect(await sold(blind.id)).toHaveLength(2); // the client's decision: the first one is theirs to void

      // Cancelling a lost purchase voids the label the carrier sold for it (the shipment id was its reference).
      const abandonedSale = (await sold(books.id)).find((sale) => sale.reference === abandoned.id);
      expect(answers).toContain(`ship ${abandonedSale!.trackingNumber}`);
      const dropped = await call(cancel, "POST", `/v1/shipments/${abandoned.id}/cancel`, {
        key,
        params: { id: abandoned.id },
      });
      expect(dropped.body.shipment).toMatchObject({ status: "cancelled", label: null });
      expect(dropped.body.messages).toContainEqual(
        expect.objectContaining({
          code: "purchase_recovered",
          message: expect.stringContaining(abandonedSale!.trackingNumber),
        }),
      );

      // The lost void: the same key runs again, the carrier says it is voided already, the shipment ends cancelled.
      const settled = await call(cancel, "POST", `/v1/shipments/${voided.id}/cancel`, {
        key,
        params: { id: voided.id },
        headers: { "Idempotency-Key": "crash-4" },
      });
      expect(settled.status).toBe(200);
      expect(settled.body.shipment).toMatchObject({ status: "cancelled", label: null });
      expect(settled.body.messages).toEqual([expect.objectContaining({ code: "SBX_ALREADY_VOIDED" })]);

      // The carrier's books: one label per shipment on `books`, every one but the recovered one voided.
      const final = await sold(books.id);
      expect(final).toHaveLength(3);
      expect(final.filter((s) => s.voidedAt === null).map((s) => s.trackingNumber)).toEqual([
        again.body.shipment.tracking_number,
      ]);
    },
  );
});
