CREATE TABLE "carrier_ledger" (
	"org_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"tracking_number" text NOT NULL,
	"shipment_identifier" text NOT NULL,
	"reference" text,
	"label_type" text NOT NULL,
	"label" "bytea" NOT NULL,
	"charge" jsonb,
	"meta" jsonb NOT NULL,
	"sold_at" timestamp (6) with time zone NOT NULL,
	"voided_at" timestamp (6) with time zone,
	CONSTRAINT "carrier_ledger_org_id_connection_id_tracking_number_pk" PRIMARY KEY("org_id","connection_id","tracking_number")
);
--> statement-breakpoint
ALTER TABLE "carrier_ledger" ADD CONSTRAINT "carrier_ledger_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carrier_ledger_reference" ON "carrier_ledger" USING btree ("org_id","connection_id","reference","sold_at");--> statement-breakpoint
CREATE INDEX "carrier_ledger_sold_at" ON "carrier_ledger" USING btree ("sold_at");