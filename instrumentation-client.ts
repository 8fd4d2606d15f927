import type { core } from "zod";

// Runs in the browser before the app's own modules (Next.js loads it first). Zod compiles an object schema with
// `new Function` when it may, and finds out whether it may by trying once, when the first object schema is built.
// The pages' Content-Security-Policy allows no eval (lib/security-headers.ts), and Chromium reports that try as a
// violation though zod catches the refusal; so in the browser zod interprets schemas (the forms' are small) and never
// tries. The server keeps compiled schemas: this file is not part of its code.
//
// Zod keeps its settings on `globalThis.__zod_globalConfig` (one object for every copy of zod in the page), taking an
// object already there. Setting `jitless` on it here, rather than calling `z.config`, keeps zod itself out of the
// pages that use none of it: importing zod here put about 30 kB (gzipped) into every page's scripts. Were a later zod
// to stop reading it, its try would be back, and the browser tests fail on the violation it reports (e2e/csp.spec.ts);
// test/instrumentation-client.test.ts checks that zod takes the setting.
const scope = globalThis as { __zod_globalConfig?: core.$ZodConfig };
(scope.__zod_globalConfig ??= {}).jitless = true;
