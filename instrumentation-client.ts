import { z } from "zod";

// Runs in the browser before the app's own modules (Next.js loads it first). Zod compiles an object schema with
// `new Function` when it may, and finds out whether it may by trying once, when the first object schema is built.
// The pages' Content-Security-Policy allows no eval (lib/security-headers.ts), and Chromium reports that try as a
// violation though zod catches the refusal; so in the browser zod interprets schemas (the forms' are small) and never
// tries. The server keeps compiled schemas: this file is not part of its code.
z.config({ jitless: true });
