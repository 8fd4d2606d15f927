import type { RouteMethod } from "./operation";

/**
 * Every path the app serves (a route file, or a page: GET) and the methods it serves there, `{name}` for a dynamic
 * segment. The front door (lib/front-door.ts) refuses other methods before Next.js has routed the request, so it
 * names them in `Allow` from here; test/routing.test.ts fails when this and the files under app/ disagree.
 */
export const SERVED_METHODS: Readonly<Record<string, readonly RouteMethod[]>> = {
  "/": ["GET"],
  "/sign-in": ["GET"],
  "/sign-up": ["GET"],
  "/shipments": ["GET"],
  "/shipments/new": ["GET"],
  "/shipments/{id}": ["GET"],
  "/batches": ["GET"],
  "/batches/new": ["GET"],
  "/batches/{id}": ["GET"],
  "/scan": ["GET"],
  "/trackers": ["GET"],
  "/trackers/{id}": ["GET"],
  "/track/{id}": ["GET"],
  "/settings": ["GET"],
  "/settings/account": ["GET"],
  "/settings/addresses": ["GET"],
  "/settings/api-keys": ["GET"],
  "/settings/audit": ["GET"],
  "/settings/connections": ["GET"],
  "/settings/parcels": ["GET"],
  "/settings/team": ["GET"],
  "/invite/{token}": ["GET"],
  "/settings/webhooks": ["GET"],
  "/settings/webhooks/{id}": ["GET"],
  "/api/health": ["GET"],
  "/api/ready": ["GET"],
  "/api/inngest": ["GET", "POST", "PUT"],
  "/v1/openapi.json": ["GET"],
  "/v1/api_keys": ["GET", "POST"],
  "/v1/api_keys/{id}": ["DELETE"],
  "/v1/carriers": ["GET"],
  "/v1/connections": ["GET", "POST"],
  "/v1/connections/{id}": ["GET", "PATCH", "DELETE"],
  "/v1/addresses": ["GET", "POST"],
  "/v1/addresses/validate": ["POST"],
  "/v1/addresses/{id}": ["GET", "PATCH", "DELETE"],
  "/v1/parcel_presets": ["GET", "POST"],
  "/v1/parcel_presets/{id}": ["GET", "PATCH", "DELETE"],
  "/v1/rate_rule": ["GET", "PUT"],
  "/v1/proxy/rates": ["POST"],
  "/v1/proxy/shipping": ["POST"],
  "/v1/proxy/tracking/{carrier_name}/{tracking_number}": ["GET"],
  "/v1/shipments": ["GET", "POST"],
  "/v1/shipments/{id}": ["GET", "DELETE"],
  "/v1/shipments/{id}/cancel": ["POST"],
  "/v1/shipments/{id}/label": ["GET"],
  "/v1/shipments/{id}/documents": ["GET"],
  "/v1/shipments/{id}/documents/{document_id}": ["GET"],
  "/v1/shipments/{id}/purchase": ["POST"],
  "/v1/trackers": ["GET"],
  "/v1/trackers/{id}": ["GET", "DELETE"],
  "/v1/trackers/{id}/refresh": ["POST"],
  "/v1/trackers/{id}/share": ["POST"],
  "/v1/trackers/{carrier_name}/{tracking_number}": ["GET", "POST"],
  "/v1/webhooks": ["GET", "POST"],
  "/v1/webhooks/{id}": ["GET", "PATCH", "DELETE"],
  "/v1/webhooks/{id}/rotate-secret": ["POST"],
  "/v1/webhooks/{id}/test": ["POST"],
  "/v1/webhooks/{id}/deliveries": ["GET"],
  "/v1/events": ["GET"],
  "/v1/events/{id}": ["GET"],
  "/v1/events/{id}/redeliver": ["POST"],
  "/v1/audit_events": ["GET"],
  "/v1/batches": ["GET", "POST"],
  "/v1/batches/mapping": ["GET", "PUT"],
  "/v1/batches/{id}": ["GET"],
  "/v1/batches/{id}/cancel": ["POST"],
  "/v1/batches/{id}/decisions": ["POST"],
  "/v1/batches/{id}/failed.csv": ["GET"],
  "/v1/batches/{id}/labels.pdf": ["GET"],
  "/v1/batches/{id}/labels.zpl": ["GET"],
  "/v1/batches/{id}/packing-list.pdf": ["GET"],
  "/v1/batches/{id}/purchase": ["POST"],
  "/v1/batches/{id}/retry": ["POST"],
};

const segments = (path: string) => path.replace(/\/+$/, "").split("/");
const TEMPLATES = Object.entries(SERVED_METHODS).map(([template, methods]) => ({
  parts: segments(template),
  methods,
}));

/** The methods served at `pathname`, or null for a path the app does not serve. Literal segments win, as in Next.js. */
export function servedMethods(pathname: string): readonly RouteMethod[] | null {
  const parts = segments(pathname);
  let best: { methods: readonly RouteMethod[]; literals: number } | null = null;
  for (const t of TEMPLATES) {
    if (t.parts.length !== parts.length) continue;
    let literals = 0;
    const matches = t.parts.every((p, i) => {
      if (p.startsWith("{")) return parts[i] !== "";
      literals++;
      return p === parts[i];
    });
    if (matches && (!best || literals > best.literals)) best = { methods: t.methods, literals };
  }
  return best?.methods ?? null;
}
