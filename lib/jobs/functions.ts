import "server-only";
import { refreshTrackersFunction } from "./refresh-trackers";
import { sendWebhooksFunction } from "./send-webhooks";
import { resumeBatchesFunction, runBatchFunction } from "./run-batches";

/** Every Inngest function the app serves at /api/inngest. */
export const jobFunctions = [refreshTrackersFunction, sendWebhooksFunction, runBatchFunction, resumeBatchesFunction];
