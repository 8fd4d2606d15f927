import { z } from "zod";
import { Timestamp } from "./common";
import { instant } from "./instant";
import { statusFilter } from "./status-filter";

/** Every action the audit log records (docs/api.md, "Audit log"): `<resource>.<what happened>`. */
export const AUDIT_ACTIONS = [
  "shipment.created",
  "shipment.purchased",
  "shipment.cancelled",
  "shipment.label_downloaded",
  "tracker.created",
  "tracker.refreshed",
  "tracker.shared",
  "tracker.deleted",
  "connection.created",
  "connection.updated",
  "connection.deleted",
  "api_key.created",
  "api_key.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.deleted",
  "webhook_endpoint.secret_rotated",
  "webhook_endpoint.disabled",
  "event.redelivered",
  "invitation.created",
  "invitation.revoked",
  "invitation.accepted",
  "member.added",
  "member.role_changed",
  "member.removed",
  "user.signed_in",
  "user.sign_in_failed",
  "user.updated",
  "user.password_changed",
  "user.sessions_revoked",
  "batch.created",
  "batch.purchase_confirmed",
  "batch.retried",
  "batch.rows_decided",
  "batch.cancelled",
  "batch.completed",
  "batch.labels_downloaded",
  "batch_mapping.updated",
  "address.created",
  "address.updated",
  "address.deleted",
  "parcel_preset.created",
  "parcel_preset.updated",
  "parcel_preset.deleted",
  "rate_rule.updated",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const AUDIT_ACTOR_TYPES = ["user", "api_key", "system", "anonymous"] as const;

export const AuditEvent = z
  .object({
    id: z.string(),
    created_at: Timestamp,
    actor: z
      .object({
        type: z.enum(AUDIT_ACTOR_TYPES),
        /** The usr_ or key_ id; null for the system and for a failed sign-in. */
        id: z.string().nullable(),
        /** An API key's or a system job's name as it was then; null for a person. */
        name: z.string().nullable(),
      })
      .meta({ id: "AuditActor" }),
    action: z.enum(AUDIT_ACTIONS),
    resource: z.object({ type: z.string(), id: z.string() }).meta({ id: "AuditResource" }),
    /** The client's address and user agent; null for jobs. */
    client: z.object({ address: z.string().nullable(), user_agent: z.string().nullable() }).meta({ id: "AuditClient" }),
    request_id: z.string().nullable(),
    /** What changed: fields, statuses, counts and ids; never secrets or personal data. */
    summary: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "AuditEvent" });
export type AuditEvent = z.output<typeof AuditEvent>;

export const AuditEventList = z
  .object({
    /** The next page's link, or null on the last page. */
    next: z.string().nullable(),
    /** The cursor that link carries. */
    next_cursor: z.string().nullable(),
    results: z.array(AuditEvent),
  })
  .meta({ id: "AuditEventList" });

// The dashboard's Audit log page reads its URL with this schema too, without the API's check for text that cannot be
// stored: a NUL would reach Postgres, which refuses to compare it.
const id = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((v) => !v.includes("\u0000"), "must not contain a NUL character (\\u0000)");

export const AuditEventListQuery = z
  .object({
    limit: z
      .string()
      .regex(/^\d{1,3}$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1).max(100))
      .default(20)
      .describe("Results per page, 1–100"),
    cursor: z
      .string()
      .regex(/^\d{1,18}$/, "must be a cursor from `next_cursor`")
      .optional()
      .describe("Where the page starts: a previous page's `next_cursor`"),
    actor_id: id.optional().describe("Only what this person (usr_) or API key (key_) did"),
    actor_type: statusFilter(AUDIT_ACTOR_TYPES).optional().describe("Only these kinds of actor (comma-separated)"),
    action: statusFilter(AUDIT_ACTIONS).optional().describe("Only these actions (comma-separated)"),
    resource_id: id.optional().describe("Only what happened to this resource"),
    created_after: instant.optional().describe("ISO 8601 date or timestamp (inclusive)"),
    created_before: instant.optional().describe("ISO 8601 date or timestamp (exclusive)"),
  })
  .strict();
export type AuditEventListQuery = z.output<typeof AuditEventListQuery>;
