import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { notConfigured } from "@/lib/api/fallback";
import { inngestConfigured } from "@/lib/env";
import { inngest } from "@/lib/jobs/inngest";
import { jobFunctions } from "@/lib/jobs/functions";

// Internal, unversioned: Inngest (Cloud or self-hosted) calls this to run the functions; requests are signed.
const inngestHandlers = serve({ client: inngest, functions: jobFunctions });
const unconfigured = notConfigured(
  "Inngest is not configured: set INNGEST_SIGNING_KEY (Inngest Cloud, or a self-hosted server with INNGEST_BASE_URL) " +
    "or INNGEST_DEV=1 (a local dev server). Without Inngest the tracker refresh runs in-process and nothing calls here.",
);
// Asked per request: the configuration is read on first use, never while `next build` imports this file.
const ifConfigured = (handler: typeof inngestHandlers.GET) => (req: NextRequest, ctx: unknown) =>
  inngestConfigured() ? handler(req, ctx) : unconfigured(req);

export const GET = ifConfigured(inngestHandlers.GET);
export const POST = ifConfigured(inngestHandlers.POST);
export const PUT = ifConfigured(inngestHandlers.PUT);
