/** Liveness for load balancers and the benchmark's baseline: answers without touching the database. */
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
