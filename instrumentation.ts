/**
 * Runs once when the server starts. The inline NEXT_RUNTIME test is how Next.js drops the Node-only start-up from
 * the edge bundle, so it is the one process.env read outside lib/env.ts.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Before anything can fail: errors Next.js prints go through our log's serializer (lib/log.ts says why).
    const { keepErrorsOutOfConsole } = await import("./lib/log");
    keepErrorsOutOfConsole();
    // First, so every request the server takes from now on passes the front door (lib/front-door.ts).
    const { openFrontDoor } = await import("./lib/front-door");
    openFrontDoor();
    const { startServer } = await import("./lib/start-server");
    await startServer();
  }
}
