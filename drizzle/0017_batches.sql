CREATE TABLE "batch_rows" (
	"batch_id" text NOT NULL,
	"line" integer NOT NULL,
	"org_id" text NOT NULL,
	"input" jsonb NOT NULL,
	"request" jsonb,
	"state" text NOT NULL,
	"held" text,
	"rate" jsonb,
	"error_code" text,
	"error_column" text,
	"error_message" text,
	"carrier_text" text,
	"shipment_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"lease_until" timestamp (6) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_rows_batch_id_line_pk" PRIMARY KEY("batch_id","line")
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"state" text NOT NULL,
	"source" text NOT NULL,
	"filename" text,
	"rate_policy" jsonb NOT NULL,
	"defaults" jsonb NOT NULL,
	"mapping" jsonb NOT NULL,
	"row_count" integer NOT NULL,
	"invalid_count" integer DEFAULT 0 NOT NULL,
	"summary" jsonb,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp (6) with time zone,
	"finished_at" timestamp (6) with time zone
);
--> statement-breakpoint
ALTER TABLE "batch_rows" ADD CONSTRAINT "batch_rows_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_rows_state" ON "batch_rows" USING btree ("batch_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "batch_rows_idempotency_key" ON "batch_rows" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "batch_rows_shipment" ON "batch_rows" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "batches_org_created" ON "batches" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "batches_active" ON "batches" USING btree ("state") WHERE "batches"."state" in ('validating', 'purchasing');