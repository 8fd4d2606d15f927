import "server-only";
/**
 * Spaces the starts of one connection's tracking calls to its requests-per-minute budget, per process. A round
 * claims at most one minute of budget, so a worker in another process (Inngest steps) stays within it per round.
 */
export interface Pacer {
  take(): Promise<void>;
}

const pacers = new Map<string, { rpm: number; next: number }>();

export function pacerFor(connectionId: string, requestsPerMinute: number): Pacer {
  let state = pacers.get(connectionId);
  if (!state || state.rpm !== requestsPerMinute) {
    state = { rpm: requestsPerMinute, next: 0 };
    pacers.set(connectionId, state);
  }
  const spacing = 60_000 / requestsPerMinute;
  const s = state;
  return {
    async take() {
      const now = Date.now();
      const at = Math.max(now, s.next);
      s.next = at + spacing;
      if (at > now) await new Promise((r) => setTimeout(r, at - now));
    },
  };
}
