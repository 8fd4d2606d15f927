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
  /** Pause between failed probes. */
  probeEveryMs: number;
  /** Told when the circuit opens and closes (a log line). */
  onChange?: (state: "open" | "closed") => void;
}

/**
 * A fast-fail circuit in front of a Postgres pool. While reaching the database fails, every query would otherwise
 * wait in the pool for a connection attempt of its own (up to the connect timeout, and behind the others), so an
 * outage under traffic turned into requests hanging. Once an attempt to reach the database fails, the circuit opens:
 * queries are refused at once (DatabaseDownError, answered 503) and one probe at a time asks the database again,
 * every `probeEveryMs`; the first probe that is answered closes it. Errors of a connection that was already open
 * (a backend killed, a restart cutting live connections) do not open it: the next query connects anew, and only
 * if that fails is the database away.
 */
export class DatabaseCircuit {
  private openSince: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

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
    this.timer = setTimeout(() => void this.probeOnce(), this.options.probeEveryMs);
    this.timer.unref?.();
  }

  private async probeOnce(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    try {
      await this.options.probe();
    } catch {
      if (!this.stopped) this.schedule();
      return;
    }
    this.openSince = null;
    this.options.onChange?.("closed");
  }
}
