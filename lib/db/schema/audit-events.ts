import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { timestamptz } from "./columns";

/**
 * The audit log (docs/api.md, "Audit log"): who changed what, when and from where. Written by lib/audit in the
 * transaction of the change, so a row exists exactly when its change committed. `summary` holds facts of the change
 * (fields changed, statuses, counts, ids), never secrets or personal fields.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    // The order rows were written in: the cursor pages by it (created_at is shared by a transaction's rows).
    seq: bigserial("seq", { mode: "number" }).notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    // user, api_key, system; anonymous for a failed sign-in (nobody proved who they are).
    actorType: text("actor_type", { enum: ["user", "api_key", "system", "anonymous"] }).notNull(),
    // The usr_/key_ id; null for the system and the anonymous.
    actorId: text("actor_id"),
    // An API key's name or a system job's name, as they were then; null for a person (their name is personal).
    actorName: text("actor_name"),
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id").notNull(),
    // The client's address and user agent (the request's); null for jobs.
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    requestId: text("request_id"),
    summary: jsonb("summary").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index("audit_events_org_seq").on(t.orgId, t.seq.desc()),
    index("audit_events_org_resource").on(t.orgId, t.resourceId, t.seq.desc()),
    index("audit_events_org_actor").on(t.orgId, t.actorId, t.seq.desc()),
    index("audit_events_created").on(t.createdAt),
  ],
);
