import tseslint from "typescript-eslint";
import nextPlugin from "@next/eslint-plugin-next";

/**
 * The import rules are the house plan's rules (docs/architecture.md, "Rules"): a red lint here is a design
 * question. Each room's patterns are combined into one `no-restricted-imports` entry, because a later entry for
 * the same files replaces an earlier one rather than adding to it.
 */
const alias = (...paths) => paths.flatMap((p) => [`@/${p}`, `@/${p}/*`]);
const DATABASE_DRIVERS = ["drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/pglite", "@electric-sql/pglite/*"];
const DOMAIN = [
  "lib/auth",
  "lib/orgs",
  "lib/connections",
  "lib/rates",
  "lib/shipments",
  "lib/trackers",
  "lib/webhooks",
  "lib/audit",
  "lib/batches",
  "lib/addresses",
];
const ABOVE_DOMAIN = [
  "lib/api",
  "lib/jobs",
  "lib/bootstrap",
  "lib/start-server",
  "lib/front-door",
  "lib/dashboard",
  "app",
];

// Every import from another folder goes through "@/": a relative path up and across could slip past the rules.
const noClimbing = {
  group: ["../*", "../**"],
  message: 'Import from another folder through "@/…" (the import rules match those paths).',
};

const rules = {
  routes: [
    { group: alias("lib/db"), message: "Routes never import the database: call a lib verb (docs/architecture.md)." },
    { group: DATABASE_DRIVERS, message: "Routes never talk to the database: call a lib verb (docs/architecture.md)." },
  ],
  carriers: [
    {
      group: [...alias("lib/db", "lib/context", ...DOMAIN, ...ABOVE_DOMAIN), ...DATABASE_DRIVERS],
      message:
        "Carriers never import the database or the domain: an adapter speaks its carrier's wire format and nothing else (docs/architecture.md).",
    },
  ],
  domain: [
    {
      group: alias(...ABOVE_DOMAIN),
      message:
        "The domain never imports lib/api (or anything above it): verbs know nothing of HTTP (docs/architecture.md).",
    },
  ],
  dashboard: [
    {
      group: ["sonner"],
      message: "Toasts come through @/components/ui/toaster, which keeps sonner out of every page's first load.",
    },
  ],
  database: [
    {
      group: [
        ...alias(...DOMAIN, ...ABOVE_DOMAIN, "lib/labels", "lib/context"),
        "@/lib/carriers/*/**",
        "@/lib/carriers/registry",
        "@/lib/carriers/invoke",
        // The table definitions' relative imports (see below), held to the same rule.
        ...[...DOMAIN, ...ABOVE_DOMAIN, "lib/labels"].flatMap((room) => {
          const up = `../../${room.replace(/^lib\//, "")}`;
          return [up, `${up}/*`];
        }),
        "../../carriers/*/**",
        "../../carriers/registry",
        "../../carriers/invoke",
      ],
      message:
        "The database never imports the domain (or carriers' code): it opens, migrates and describes tables (docs/architecture.md).",
    },
  ],
};

const restrict = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "drizzle/**",
      ".data/**",
      "next-env.d.ts",
      "test/fixtures/**",
      // Playwright's output: a report with traces carries the trace viewer's bundled scripts.
      "playwright-report/**",
      "test-results/**",
      // Stryker's sandboxes (instrumented copies of the project) and its report.
      ".stryker-tmp/**",
      "reports/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { "@next/next": nextPlugin },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  { files: ["**/*.{ts,tsx,mts}"], rules: restrict(noClimbing) },
  { files: ["app/v1/**/*.{ts,tsx}"], rules: restrict(noClimbing, ...rules.routes) },
  // Pages and their components are routes too: they render what verbs answer, with the session's context.
  {
    files: ["app/\\(*\\)/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: restrict(noClimbing, ...rules.routes, ...rules.dashboard),
  },
  // The one module that loads sonner, after the page (components/ui/toaster.tsx).
  { files: ["components/ui/toaster.tsx"], rules: restrict(noClimbing, ...rules.routes) },
  { files: ["lib/carriers/**/*.ts"], rules: restrict(noClimbing, ...rules.carriers) },
  { files: DOMAIN.map((room) => `${room}/**/*.ts`), rules: restrict(noClimbing, ...rules.domain) },
  { files: ["lib/db/**/*.ts"], rules: restrict(noClimbing, ...rules.database) },
  // drizzle-kit loads the table definitions without the "@/" alias: their value imports stay relative.
  { files: ["lib/db/schema/*.ts"], rules: restrict(...rules.database) },
);
