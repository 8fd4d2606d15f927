import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./lib/security-headers";

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, never bundled;
  // pino and postgres are server-only and gain nothing from bundling.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "postgres", "bwip-js", "pdf-lib", "@pdf-lib/fontkit"],
  poweredByHeader: false,
  // Every answer Next.js gives: pages, the API, health, Inngest's endpoint, static files and 404s.
  async headers() {
    return [
      { source: "/:path*", headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) },
      // Public tracking pages are the same for everyone: browsers and shared caches may keep one for a minute. They
      // render per request (app/track/layout.tsx), and Next.js keeps a Cache-Control already set on a dynamic
      // page's answer. (`revalidate = 60` would make them ISR pages instead: one file per visited link stored by
      // every instance, and no database at build time to prerender with.)
      { source: "/track/:id", headers: [{ key: "Cache-Control", value: "public, max-age=60" }] },
    ];
  },
};

export default config;
