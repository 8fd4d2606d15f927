import { isDatabaseReady } from "@/lib/db/ready";

/**
 * Readiness for load balancers: 200 when this instance reaches its database, 503 `unavailable` when it does not
 * (an outage, a failed start), so the balancer takes the instance out until it answers 200 again. Liveness, which
 * never touches the database, is /api/health.
 */
export const dynamic = "force-dynamic";

export async function GET() {
  const headers = { "Cache-Control": "no-store" };
  if (await isDatabaseReady()) return Response.json({ status: "ready" }, { headers });
  return Response.json({ status: "unavailable" }, { status: 503, headers: { ...headers, "Retry-After": "5" } });
}
