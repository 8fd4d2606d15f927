import type { Sql } from "postgres";
import { isDatabaseUnreachable } from "./unavailable";

/** A check's `select 1` got no answer in time; lib/db/unavailable.ts counts it as the database unreachable. */
export class CheckTimeoutError extends Error {
  readonly code = "CHECK_TIMEOUT";
  constructor(ms: number) {
    super(`The database did not answer a check on a connection of its own within ${ms} ms.`);
    this.name = "CheckTimeoutError";
  }
}

export interface StallWatchOptions {
  /** Work in flight longer than this may be waiting on a peer that is gone: the database is checked. */
  stallMs: number;
  /** A check starts no sooner than this after the previous one started. */
  checkEveryMs: number;
  /** One round trip on a connection of its own; rejects when it fails. */
  check: () => Promise<unknown>;
  /** A check failed because the database could not be reached (not an error of the check's own). */
  onUnreachable: (err: unknown) => void;
}

/**
 * Watches the work in flight on a Postgres pool. A live connection whose peer vanished without a reset (the host
 * powered off mid-query) never fails: the bytes are retransmitted until TCP gives up, minutes later, and every query
 * on it or queued behind it waits as long. Nothing about the connection tells that apart from a long query, so
 * while something has been in flight longer than `stallMs` the database is asked on a connection of its own, at most
 * one check at a time and one every `checkEveryMs`: a long but healthy query costs one cheap check a second, never
 * an error. A check that cannot reach the database is told to `onUnreachable` (which gives up on the pool).
 */
export class StallWatch {
  // Insertion order is start order: the first entry is the oldest work in flight.
  private readonly started = new Map<symbol, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private checking = false;
  private lastCheckAt = -Infinity;
  private stopped = false;

  constructor(private readonly options: StallWatchOptions) {}

  /** Watches `work` from now until it settles; answers it unchanged. */
  track<T>(work: PromiseLike<T>): Promise<T> {
    const token = Symbol();
    this.started.set(token, Date.now());
    this.arm();
    return Promise.resolve(work).finally(() => this.started.delete(token));
  }

  /** The work in flight was on a pool that is gone (its queries are being failed): it is watched no longer. */
  forget(): void {
    this.started.clear();
  }

  /** The pool is closing: no more checks. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.stopped || this.checking || this.timer) return;
    const oldest = this.started.values().next();
    if (oldest.done) return;
    const due = Math.max(oldest.value + this.options.stallMs, this.lastCheckAt + this.options.checkEveryMs);
    // unref: the watch never keeps a process alive that has nothing else to do.
    this.timer = setTimeout(() => this.tick(), Math.max(0, due - Date.now()));
    this.timer.unref?.();
  }

  private tick(): void {
    this.timer = null;
    const oldest = this.started.values().next();
    if (this.stopped || oldest.done) return;
    const now = Date.now();
    // The work that made the timer may have ended since: wait for what is in flight now.
    if (now - oldest.value < this.options.stallMs || now - this.lastCheckAt < this.options.checkEveryMs) {
      this.arm();
      return;
    }
    void this.checkOnce(now);
  }

  private async checkOnce(now: number): Promise<void> {
    this.checking = true;
    this.lastCheckAt = now;
    let failure: unknown = null;
    try {
      await this.options.check();
    } catch (err) {
      failure = err;
    }
    this.checking = false;
    if (this.stopped) return;
    if (failure !== null && isDatabaseUnreachable(failure)) this.options.onUnreachable(failure);
    this.arm();
  }
}

/**
 * One `select 1` on a client of its own, not the pool's (whose connections may be the stalled ones), given up after
 * `deadlineMs` whatever it waits on, then ended.
 */
export async function checkAlone(connect: () => Sql, deadlineMs: number): Promise<void> {
  const sql = connect();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      sql`select 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeoutError(deadlineMs)), deadlineMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    // timeout 0: a connection the database never answered is not waited on.
    void sql.end({ timeout: 0 }).catch(() => {});
  }
}
