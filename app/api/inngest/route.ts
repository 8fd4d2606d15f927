import { serve } from "inngest/next";
import { inngest } from "@/lib/jobs/inngest";
import { jobFunctions } from "@/lib/jobs/refresh-trackers";

// Internal, unversioned: Inngest (Cloud or self-hosted) calls this to run the functions; requests are signed.
export const { GET, POST, PUT } = serve({ client: inngest, functions: jobFunctions });
