import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, never bundled;
  // pino and postgres are server-only and gain nothing from bundling.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "postgres", "bwip-js", "pdf-lib"],
  poweredByHeader: false,
};

export default config;
