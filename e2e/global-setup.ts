import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
  }
}

const PORT = Number(process.env.E2E_PORT ?? 3311);

/** Starts the production build on an empty embedded database for the browser tests, and stops it after. */
export default async function setup(project: TestProject) {
  if (!existsSync(".next/BUILD_ID"))
    throw new Error("No production build: run `npm run build` before `npm run test:e2e`.");
  const dataDir = mkdtempSync(join(tmpdir(), "shipwell-e2e-"));
  const apiKey = "e2e-" + randomBytes(16).toString("hex");
  const server: ChildProcess = spawn("npx", ["next", "start", "-p", String(PORT)], {
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: dataDir,
      BOOTSTRAP_API_KEY: apiKey,
      LOG_LEVEL: "warn",
      REFRESH_TICK_SECONDS: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${PORT}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the app did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide("baseUrl", baseUrl);
  project.provide("apiKey", apiKey);
  return async () => {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
