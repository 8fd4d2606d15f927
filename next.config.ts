import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./lib/security-headers";

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, never bundled;
  // pino and postgres are server-only and gain nothing from bundling.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "postgres", "bwip-js", "pdf-lib"],
  poweredByHeader: false,
  // Every answer Next.js gives: pages, the API, health, Inngest's endpoint, static files and 404s.
  async headers() {
    return [{ source: "/:path*", headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }];
  },
};

export default config;
