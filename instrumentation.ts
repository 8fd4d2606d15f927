/**
 * Runs once when the server starts. The inline NEXT_RUNTIME test is how Next.js drops the Node-only start-up from
 * the edge bundle, so it is the one process.env read outside lib/env.ts.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/start-server");
    await startServer();
  }
}
