import "server-only";
import type { SystemContext } from "@/lib/context";
import { logEndpointRound, sendEndpointDeliveries, type EndpointRoundReport } from "@/lib/webhooks/send-due";

/**
 * One webhook endpoint's worker as both runners run it (the Inngest function's steps, the in-process loop): its round
 * logged in one line, and its failure (a signing secret that no longer decrypts, the database away) logged with the
 * endpoint's id and kept its own, answered as a round that sent nothing, so no other endpoint and no purge after it is
 * held up. Its claimed deliveries wait out their lease.
 */
export async function runEndpointWorker(
  ctx: SystemContext,
  args: Omit<Parameters<typeof sendEndpointDeliveries>[0], "ctx">,
): Promise<EndpointRoundReport> {
  try {
    const report = await sendEndpointDeliveries({ ctx, ...args });
    logEndpointRound(ctx, report);
    return report;
  } catch (err) {
    ctx.log.error({ msg: "webhook delivery failed", endpoint_id: args.endpointId, err });
    return { endpoint_id: args.endpointId, sent: 0, succeeded: 0, failed: 0, disabled: false };
  }
}
