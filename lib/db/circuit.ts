import { isDatabaseUnreachable } from "./unavailable";

/** What a query is refused with while the circuit is open; lib/db/unavailable.ts counts it as the database down. */
export class DatabaseDownError extends Error {
  readonly code = "DATABASE_DOWN";
  constructor() {
    super("The database could not be reached a moment ago; not trying again until a probe reaches it.");
    this.name = "DatabaseDownError";
  }
}

export interface CircuitOptions {
  /** One round trip to the database (`select 1`); resolves when it answered. */
  probe: () => Promise<unknown>;
  /** A probe starts this often while the circuit is open. */
  probeEveryMs: number;
  /** At most this many probes waiting on the database at once (default 3). */
  maxProbesInFlight?: number;
  /** Told when the circuit opens and closes (a log line). */
  onChange?: (state: "open" | "closed") => void;
}

/**
 * A fast-fail circuit in front of a Postgres pool. While reaching the database fails, every query would otherwise
 * wait in the pool for a connection attempt of its own (up to the connect timeout, and behind the others), so an
 * outage under traffic turned into requests hanging. Once an attempt to reach the database fails, the circuit opens:
 * queries are refused at once (DatabaseDownError, answered 503) and a probe asks the database again every
 * `probeEveryMs`; the first probe that is answered closes it. Probes overlap (up to `maxProbesInFlight`): a probe
 * sent while the database's host was silent waits out the whole connect timeout, and recovery must not wait behind
 * it; a probe started after the return answers within one connection of it. The cap keeps a silent network from
 * collecting connection attempts. Errors of a connection that was already open
 * (a backend killed, a restart cutting live connections) do not open it: the next query connects anew, and only
 * if that fails is the database away.
 */
export class DatabaseCircuit {
  private openSince: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private inFlight = 0;
  // Counts outages, so that a probe's answer is taken only in the outage it was sent in.
  private outages = 0;

  constructor(private readonly options: CircuitOptions) {}

  get isOpen(): boolean {
    return this.openSince !== null;
  }

  /** Before a query: throws at once while the database is known to be away. */
  check(): void {
    if (this.openSince !== null) throw new DatabaseDownError();
  }

  /** After a query failed: opens the circuit when the failure was reaching the database. */
  observe(err: unknown): void {
    if (this.stopped || this.openSince !== null || !isDatabaseUnreachable(err)) return;
    this.openSince = Date.now();
    this.outages++;
    this.options.onChange?.("open");
    this.schedule();
  }

  /** The pool is closing: no more probes. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    // unref: a probe never keeps a process alive that has nothing else to do.
    this.timer = setTimeout(() => this.tick(), this.options.probeEveryMs);
    this.timer.unref?.();
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped || this.openSince === null) return;
    if (this.inFlight < (this.options.maxProbesInFlight ?? 3)) void this.probeOnce();
    this.schedule();
  }

  private async probeOnce(): Promise<void> {
    const outage = this.outages;
    this.inFlight++;
    try {
      await this.options.probe();
    } catch {
      return;
    } finally {
      this.inFlight--;
    }
    // A slower probe answering after another already closed the circuit changes nothing, nor does one sent during
    // an earlier outage answering in a later one.
    if (this.stopped || this.openSince === null || this.outages !== outage) return;
    this.openSince = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.options.onChange?.("closed");
  }
}
