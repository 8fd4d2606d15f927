import "server-only";
import { Inngest } from "inngest";

/**
 * The Inngest client. Inngest Cloud: set INNGEST_SIGNING_KEY (and INNGEST_EVENT_KEY to send events).
 * Self-hosted Inngest: also INNGEST_BASE_URL. Local dev server: INNGEST_DEV=1. The SDK reads these itself.
 */
export const inngest = new Inngest({ id: "shipwell" });
