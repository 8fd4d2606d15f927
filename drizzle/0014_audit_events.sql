CREATE TABLE "audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"seq" bigserial NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"action" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"client_address" text,
	"user_agent" text,
	"request_id" text,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_org_seq" ON "audit_events" USING btree ("org_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_org_resource" ON "audit_events" USING btree ("org_id","resource_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_org_actor" ON "audit_events" USING btree ("org_id","actor_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_created" ON "audit_events" USING btree ("created_at");