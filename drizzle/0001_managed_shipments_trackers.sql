CREATE TABLE "addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"person_name" text,
	"company_name" text,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"postal_code" text NOT NULL,
	"state_code" text NOT NULL,
	"country_code" text NOT NULL,
	"suburb" text,
	"residential" boolean NOT NULL,
	"email" text,
	"phone_number" text,
	"federal_tax_id" text,
	"state_tax_id" text,
	"validate_location" boolean,
	"validation" jsonb,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"shipment_id" text NOT NULL,
	"org_id" text NOT NULL,
	"type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "labels_shipment_id_pk" PRIMARY KEY("shipment_id")
);
--> statement-breakpoint
CREATE TABLE "parcels" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"shipment_id" text NOT NULL,
	"position" integer NOT NULL,
	"weight" double precision NOT NULL,
	"weight_unit" text NOT NULL,
	"width" double precision,
	"height" double precision,
	"length" double precision,
	"dimension_unit" text,
	"packaging_type" text,
	"package_preset" text,
	"description" text,
	"content" text,
	"is_document" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rates" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"shipment_id" text NOT NULL,
	"position" integer NOT NULL,
	"carrier_ref" text NOT NULL,
	"carrier_name" text NOT NULL,
	"carrier_id" text NOT NULL,
	"service" text NOT NULL,
	"currency" text NOT NULL,
	"base_charge" numeric(14, 2) NOT NULL,
	"discount" numeric(14, 2) NOT NULL,
	"duties_and_taxes" numeric(14, 2) NOT NULL,
	"total_charge" numeric(14, 2) NOT NULL,
	"extra_charges" jsonb NOT NULL,
	"transit_days" integer NOT NULL,
	"meta" jsonb NOT NULL,
	"test_mode" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"status" text NOT NULL,
	"shipper_id" text NOT NULL,
	"recipient_id" text NOT NULL,
	"carrier_ids" jsonb NOT NULL,
	"services" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"customs" jsonb,
	"reference" text,
	"label_type" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"messages" jsonb NOT NULL,
	"carrier_connection_id" text,
	"carrier_name" text,
	"carrier_id" text,
	"tracking_number" text,
	"shipment_identifier" text,
	"selected_rate_id" text,
	"selected_rate" jsonb,
	"service" text,
	"payment" jsonb,
	"meta" jsonb NOT NULL,
	"tracker_id" text,
	"pending_operation" text,
	"pending_until" timestamp (6) with time zone,
	"search_text" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trackers" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"carrier_name" text NOT NULL,
	"carrier_id" text NOT NULL,
	"carrier_connection_id" text NOT NULL,
	"tracking_number" text NOT NULL,
	"status" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"estimated_delivery" text,
	"shipment_id" text,
	"last_event_at" timestamp (6) with time zone,
	"refreshed_at" timestamp (6) with time zone,
	"next_refresh_at" timestamp (6) with time zone,
	"refresh_failures" integer DEFAULT 0 NOT NULL,
	"last_error" jsonb,
	"retired_at" timestamp (6) with time zone,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking_events" (
	"tracker_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"org_id" text NOT NULL,
	"occurred_at" timestamp (6) with time zone NOT NULL,
	"date" text NOT NULL,
	"time" text,
	"description" text NOT NULL,
	"location" text NOT NULL,
	"code" text NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "tracking_events_tracker_id_fingerprint_pk" PRIMARY KEY("tracker_id","fingerprint")
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parcels" ADD CONSTRAINT "parcels_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_shipper_id_addresses_id_fk" FOREIGN KEY ("shipper_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_recipient_id_addresses_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_events" ADD CONSTRAINT "tracking_events_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "addresses_org" ON "addresses" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "parcels_shipment" ON "parcels" USING btree ("shipment_id","position");--> statement-breakpoint
CREATE INDEX "rates_shipment" ON "rates" USING btree ("shipment_id","position");--> statement-breakpoint
CREATE INDEX "shipments_org_created" ON "shipments" USING btree ("org_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shipments_org_status_created" ON "shipments" USING btree ("org_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shipments_org_carrier_created" ON "shipments" USING btree ("org_id","carrier_name","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shipments_org_tracking_number" ON "shipments" USING btree ("org_id","tracking_number");--> statement-breakpoint
CREATE INDEX "shipments_org_reference" ON "shipments" USING btree ("org_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "trackers_org_carrier_number" ON "trackers" USING btree ("org_id","carrier_name","tracking_number");--> statement-breakpoint
CREATE INDEX "trackers_org_created" ON "trackers" USING btree ("org_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trackers_org_status_created" ON "trackers" USING btree ("org_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trackers_org_number" ON "trackers" USING btree ("org_id","tracking_number");--> statement-breakpoint
CREATE INDEX "trackers_due" ON "trackers" USING btree ("next_refresh_at") WHERE "trackers"."next_refresh_at" is not null;--> statement-breakpoint
CREATE INDEX "trackers_shipment" ON "trackers" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "tracking_events_tracker_time" ON "tracking_events" USING btree ("tracker_id","occurred_at" DESC NULLS LAST);