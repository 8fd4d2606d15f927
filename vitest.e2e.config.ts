import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser tests against a production build (`npm run build` first), in Debian's Chromium via playwright-core.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["e2e/**/*.e2e.ts"],
    globalSetup: ["e2e/global-setup.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
