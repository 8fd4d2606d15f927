import { rmSync } from "node:fs";

/**
 * Removes the server's data folder. Playwright runs this before it stops the webServer, and PGlite still holds
 * the folder then: the removal waits for the runner's exit, after the server is gone.
 */
export default function globalTeardown() {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) return;
  process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}
