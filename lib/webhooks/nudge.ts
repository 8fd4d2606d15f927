import "server-only";

/**
 * A process-wide signal that the outbox has just written events, for a sender that wants to start sooner than its
 * next scheduled round (lib/jobs/send-webhooks.ts, with Inngest). It fires when the events are written, inside the
 * writer's transaction: a listener must not assume they are visible yet. On globalThis, because Next.js may load
 * this module more than once (instrumentation and route bundles), and the listener is registered by one of them.
 */
const KEY = Symbol.for("shipwell.onEventsWritten");
type Holder = { [KEY]?: () => void };

export function onEventsWritten(listener: () => void): void {
  (globalThis as Holder)[KEY] = listener;
}

export function eventsWritten(): void {
  (globalThis as Holder)[KEY]?.();
}
