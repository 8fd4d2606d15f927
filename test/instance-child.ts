/**
 * One instance of the service for test/two-instances.test.ts: a real HTTP server process on the shared Postgres
 * (DATABASE_URL), started the way the app starts (lib/start-server.ts, which shares the rate limits and the sign-in
 * limits), serving the real route handlers the test needs (better-auth's under /api/auth too) on a port of its own. Prints `READY <port>` once it listens; the test kills it.
 * A production build (`next start`) would serve the same handlers, but costs minutes to build; this costs a second.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function routes(): Promise<[string, RegExp, Handler][]> {
  const shipment = await import("@/app/v1/shipments/[id]/route");
  const purchase = await import("@/app/v1/shipments/[id]/purchase/route");
  const apiKey = await import("@/app/v1/api_keys/[id]/route");
  const audit = await import("@/app/v1/audit_events/route");
  const auth = await import("@/app/api/auth/[...all]/route");
  return [
    ["POST", /^\/api\/auth\//, auth.POST],
    ["GET", /^\/v1\/shipments\/(?<id>[^/]+)$/, shipment.GET],
    ["POST", /^\/v1\/shipments\/(?<id>[^/]+)\/purchase$/, purchase.POST],
    ["DELETE", /^\/v1\/api_keys\/(?<id>[^/]+)$/, apiKey.DELETE],
    ["GET", /^\/v1\/audit_events$/, audit.GET],
  ];
}

async function main() {
  const { startServer } = await import("@/lib/start-server");
  await startServer();
  const table = await routes();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = table.find(([method, path]) => method === req.method && path.test(url.pathname));
    if (!route) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    // As the front door does (lib/front-door.ts): the peer appended. The test runs with TRUST_PROXY=1, playing the
    // load balancer, so each test can be a client address of its own.
    const forwarded = typeof req.headers["x-forwarded-for"] === "string" ? `${req.headers["x-forwarded-for"]}, ` : "";
    headers.set("x-forwarded-for", forwarded + (req.socket.remoteAddress ?? "127.0.0.1"));
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await route[2](new Request(url, { method: req.method, headers, body }), {
      params: Promise.resolve({ ...route[1].exec(url.pathname)!.groups }),
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
