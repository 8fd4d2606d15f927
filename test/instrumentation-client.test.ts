import { expect, it } from "vitest";

/**
 * instrumentation-client.ts sets zod's `jitless` without importing zod (so pages that use no zod load none of it):
 * on the global object zod takes its settings from. This file is its own process (vitest's forks), zod not yet loaded.
 */
it("sets zod's jitless before zod loads, and zod takes it", async () => {
  await import("@/instrumentation-client");
  const { z } = await import("zod");
  expect(z.config().jitless).toBe(true);
});
