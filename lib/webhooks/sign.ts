import "server-only";
import { Webhook } from "standardwebhooks";

/**
 * The Standard Webhooks headers of one attempt (docs/webhooks.md, "Signatures"). `webhook-id` is the event's id, the
 * same on every retry and redelivery, so a receiver can drop a message it has already handled. The signature is
 * HMAC-SHA256 over `id.timestamp.body`, one `v1,<base64>` per secret, space-separated: after a rotation both the new
 * and the previous secret sign, so a receiver verifies with whichever it holds.
 */
export function signedHeaders(
  messageId: string,
  timestamp: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(" "),
  };
}
