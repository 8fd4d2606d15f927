import "server-only";
import { z } from "zod";

/**
 * The only reader of process.env. Parsed on first use (never at import), so `next build` and tests that set
 * variables before touching the app both see the values they expect.
 */
const boolish = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z
      .string()
      .url()
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    // How long one attempt to connect to Postgres may take (docs/api.md, "When the database is down").
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(500),
    // Work in flight this long has the database checked on a connection of its own (lib/db/stall-watch.ts); 0: never.
    DATABASE_STALL_MS: z.coerce.number().int().min(0).max(60_000).default(500),
    // Benches only (bench/profile.ts): every statement's SQL text, never its parameters, appended to this file.
    DATABASE_STATEMENT_LOG: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    // An in-memory database (DATA_DIR=memory://) starts as a copy of this PGlite dump instead of an empty cluster:
    // the test suite migrates one database per run and every test file starts from its copy.
    PGLITE_LOAD_DATA_DIR: z.string().min(1).optional(),
    ENCRYPTION_KEY: z.string().optional(),
    // Where people reach the dashboard (https://ship.example.com): session cookies are Secure when it is https. Unset,
    // the origin of each request is used, and cookies are Secure unless the server runs on the embedded default.
    PUBLIC_URL: z
      .string()
      .url()
      .optional()
      .or(z.literal("").transform(() => undefined)),
    // Who may create an account (docs/api.md, "Accounts and roles"): anyone, or only the first account (the default
    // organization's owner) and people with an open invitation.
    SIGN_UP: z.enum(["open", "invite_only"]).default("open"),
    // Sign-in and sign-up attempts per client address and minute, and sign-in attempts per email address and hour.
    SIGN_IN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    SIGN_IN_RATE_LIMIT_PER_EMAIL_HOUR: z.coerce.number().int().min(1).default(20),
    BOOTSTRAP_API_KEY: z.string().min(32, "must be at least 32 characters of randomness").optional(),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    // Requests without a valid API key, per client address (docs/api.md, "Rate limiting").
    UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    // How many reverse proxies in front append to X-Forwarded-For (true = 1): the client address is read behind them.
    TRUST_PROXY: z
      .preprocess(
        (v) => (v === "true" || v === "yes" ? "1" : v === "false" || v === "no" || v === "" ? "0" : v),
        z.coerce.number().int().min(0).max(10),
      )
      .default(0),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    CARRIER_DEADLINE_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // The carrier emulator (test/emulator, `npm run emulator`): every networked adapter calls `<url>/<carrier_name>`
    // instead of the carrier. For tests, benches and trying adapters by hand; a loopback address only, so a
    // misconfiguration cannot send credentials anywhere else. Connections have no such setting.
    CARRIER_EMULATOR_URL: z
      .string()
      .url()
      .refine((u) => /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(u), {
        message: "must be a loopback address such as http://127.0.0.1:4010",
      })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional()
      .or(z.literal("").transform(() => undefined)),
    // Webhook endpoints (docs/webhooks.md): plain http for live endpoints too, and delivery to private, loopback,
    // link-local and metadata addresses (local development, tests). Both off: https only, public addresses only.
    WEBHOOKS_ALLOW_HTTP: boolish.default(false),
    WEBHOOKS_ALLOW_PRIVATE_URLS: boolish.default(false),
    // Who sends webhooks: auto (Inngest when it is configured, else an in-process timer ticking every second).
    WEBHOOK_DELIVERY: z.enum(["auto", "inngest", "in_process", "off"]).default("auto"),
    // The audit log (docs/api.md, "Audit log") keeps rows this many days; the webhook sender's rounds prune older ones.
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
    SKIP_MIGRATIONS: boolish.default(false),
    // Background tracker refresh. auto: Inngest when it is configured (below), else an in-process timer.
    TRACKER_REFRESH: z.enum(["auto", "inngest", "in_process", "off"]).default("auto"),
    BATCH_RUNNER: z.enum(["auto", "inngest", "in_process", "off"]).default("auto"),
    REFRESH_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
    // Read by the Inngest SDK itself; listed here so the choice above is made from validated values.
    INNGEST_SIGNING_KEY: z.string().optional(),
    INNGEST_EVENT_KEY: z.string().optional(),
    INNGEST_BASE_URL: z.string().url().optional(),
    INNGEST_DEV: z.string().optional(),
  })
  // A generated key would live on one instance's disk and be lost: with a shared database it must be configured.
  .refine((e) => !e.DATABASE_URL || e.ENCRYPTION_KEY, {
    path: ["ENCRYPTION_KEY"],
    message: "is required with DATABASE_URL (32 bytes as 64 hex characters, e.g. `openssl rand -hex 32`)",
  });

export type Env = z.infer<typeof schema>;

let cached: Env | null = null;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  cached = parsed.data;
  return cached;
}

/** Tests change variables between cases; production never calls this. */
export function resetEnvCache(): void {
  cached = null;
}

/** No DATABASE_URL: the embedded PGlite database. */
export function isEmbedded(): boolean {
  return !env().DATABASE_URL;
}

export function isInMemory(): boolean {
  return isEmbedded() && env().DATA_DIR.startsWith("memory://");
}

export function isBuildPhase(): boolean {
  return process.env.NEXT_PHASE === "phase-production-build";
}

/** Inngest is set up: Cloud or a self-hosted server (its signing key, its URL), or the local dev server. */
export function inngestConfigured(): boolean {
  const e = env();
  return Boolean(e.INNGEST_SIGNING_KEY || e.INNGEST_BASE_URL || (e.INNGEST_DEV && e.INNGEST_DEV !== "0"));
}

/** Who runs the background tracker refresh in this deployment. */
export function trackerRefreshRunner(): "inngest" | "in_process" | "off" {
  const e = env();
  if (e.TRACKER_REFRESH !== "auto") return e.TRACKER_REFRESH;
  return inngestConfigured() ? "inngest" : "in_process";
}

/** Who works batches (docs/architecture.md, "How a job travels"): Inngest when configured, else this process. */
export function batchRunner(): "inngest" | "in_process" | "off" {
  const e = env();
  if (e.BATCH_RUNNER !== "auto") return e.BATCH_RUNNER;
  return inngestConfigured() ? "inngest" : "in_process";
}

/** Who sends webhooks in this deployment (docs/webhooks.md, "Operating"). */
export function webhookDeliveryRunner(): "inngest" | "in_process" | "off" {
  const e = env();
  if (e.WEBHOOK_DELIVERY !== "auto") return e.WEBHOOK_DELIVERY;
  return inngestConfigured() ? "inngest" : "in_process";
}
