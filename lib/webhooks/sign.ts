import "server-only";
import { createHmac } from "node:crypto";

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
    "webhook-signature": secrets.map((secret) => sign(secret, messageId, timestamp, body)).join(" "),
  };
}

const PREFIX = "whsec_";

/**
 * One `v1,` signature, as the standardwebhooks library writes it (sign.test.ts holds the two equal), with Node.js's
 * native HMAC: the library's SHA-256 is JavaScript, and was most of the signing's cost on a burst (issue 35).
 */
function sign(secret: string, messageId: string, timestamp: Date, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const seconds = Math.floor(timestamp.getTime() / 1000);
  return `v1,${createHmac("sha256", key).update(`${messageId}.${seconds}.${body}`).digest("base64")}`;
}
