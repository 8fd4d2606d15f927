CREATE TABLE "address_verifications" (
	"org_id" text NOT NULL,
	"carrier_name" text NOT NULL,
	"address_hash" text NOT NULL,
	"verdict" jsonb NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_verifications_org_id_carrier_name_address_hash_pk" PRIMARY KEY("org_id","carrier_name","address_hash")
);
--> statement-breakpoint
CREATE TABLE "saved_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"label" text,
	"person_name" text,
	"company_name" text,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"postal_code" text NOT NULL,
	"state_code" text NOT NULL,
	"country_code" text NOT NULL,
	"residential" boolean,
	"email" text,
	"phone_number" text,
	"federal_tax_id" text,
	"is_default_sender" boolean DEFAULT false NOT NULL,
	"search_text" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "address_verifications" ADD CONSTRAINT "address_verifications_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_addresses" ADD CONSTRAINT "saved_addresses_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_verifications_created" ON "address_verifications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "saved_addresses_org_newest" ON "saved_addresses" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "saved_addresses_one_default_sender" ON "saved_addresses" USING btree ("org_id") WHERE "saved_addresses"."is_default_sender";