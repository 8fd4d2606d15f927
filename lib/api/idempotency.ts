import "server-only";
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { decryptJson, encryptJson } from "@/lib/connections/crypto";
import { idempotencyKeys } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { ApiError } from "./errors";

/** docs/api.md, "Idempotency": keys live 24 h per organization, in the database so they hold across instances. */
const TTL_MS = 24 * 60 * 60 * 1000;
// A request still "in progress" after this long died with its process; the key becomes usable again.
const LOCK_MS = 5 * 60 * 1000;

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function requestFingerprint(method: string, path: string, body: string): string {
  return createHash("sha256").update(`${method}\n${path}\n${body}`).digest("hex");
}

/** A key this request holds; `lock` (its lock deadline) tells our hold apart from a later takeover. */
export interface IdempotencySlot {
  orgId: string;
  key: string;
  lock: Date;
}

export type IdempotencyStart = { kind: "started"; lock: Date } | { kind: "replay"; status: number; body: unknown };

const inProgress = () =>
  new ApiError("idempotency_in_progress", "A request with this Idempotency-Key is still in progress.", {
    headers: { "Retry-After": "1" },
  });

export async function beginIdempotent(
  db: Db,
  input: { orgId: string; key: string; method: string; path: string; fingerprint: string },
): Promise<IdempotencyStart> {
  const now = new Date();
  const lock = new Date(now.getTime() + LOCK_MS);
  const where = and(eq(idempotencyKeys.orgId, input.orgId), eq(idempotencyKeys.key, input.key));
  sweepExpired(db, now);
  const inserted = await db
    .insert(idempotencyKeys)
    .values({
      orgId: input.orgId,
      key: input.key,
      requestHash: input.fingerprint,
      method: input.method,
      path: input.path,
      state: "in_progress",
      lockedUntil: lock,
      expiresAt: new Date(now.getTime() + TTL_MS),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { kind: "started", lock };

  const [row] = await db.select().from(idempotencyKeys).where(where);
  if (!row) return beginIdempotent(db, input); // removed between the two statements
  if (row.expiresAt <= now) {
    // A key older than its 24 h is free again: drop that record (only if still the same one) and start over.
    await db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.expiresAt, row.expiresAt)));
    return beginIdempotent(db, input);
  }
  if (row.requestHash !== input.fingerprint) {
    throw new ApiError(
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request (method, path or body).",
    );
  }
  if (row.state === "completed") {
    const body = row.responseSealed === null ? row.responseBody : decryptJson(row.responseSealed, sealedFor(input));
    return { kind: "replay", status: row.responseStatus ?? 200, body };
  }
  if (row.lockedUntil > now) throw inProgress();
  const taken = await db
    .update(idempotencyKeys)
    .set({ lockedUntil: lock })
    .where(and(where, eq(idempotencyKeys.state, "in_progress"), eq(idempotencyKeys.lockedUntil, row.lockedUntil)))
    .returning({ key: idempotencyKeys.key });
  if (taken.length > 0) return { kind: "started", lock };
  throw inProgress();
}

const ours = (slot: IdempotencySlot) =>
  and(
    eq(idempotencyKeys.orgId, slot.orgId),
    eq(idempotencyKeys.key, slot.key),
    eq(idempotencyKeys.state, "in_progress"),
    eq(idempotencyKeys.lockedUntil, slot.lock),
  );

/**
 * What an answer is sealed to: its organization and key, so a sealed answer copied onto another record does not
 * open. Sealed because a replayed answer may be the only copy of a secret the API stores as a hash (a new API key) or
 * encrypted (a webhook's signing secret), or hold a label and addresses: kept 24 h, none of it in the clear.
 */
const sealedFor = (slot: Pick<IdempotencySlot, "orgId" | "key">) => `idempotency:${slot.orgId}:${slot.key}`;

export async function completeIdempotent(db: Db, slot: IdempotencySlot, status: number, body: unknown) {
  await db
    .update(idempotencyKeys)
    .set({ state: "completed", responseStatus: status, responseSealed: encryptJson(body ?? null, sealedFor(slot)) })
    .where(ours(slot));
}

/** After a server-side failure the key is freed, so the client's retry runs the request again. */
export async function releaseIdempotent(db: Db, slot: IdempotencySlot) {
  await db.delete(idempotencyKeys).where(ours(slot));
}

// Expired answers (labels included) would otherwise pile up; one sweep per instance every few minutes is plenty.
const SWEEP_EVERY_MS = 5 * 60 * 1000;
let lastSweep = 0;

function sweepExpired(db: Db, now: Date) {
  if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now.getTime();
  sweepExpiredIdempotencyKeys(db, now).catch(() => {
    lastSweep = 0;
  });
}

/** Deletes every expired key; runs in the background (above), and directly in tests. */
export async function sweepExpiredIdempotencyKeys(db: Db, now = new Date()) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now));
}
