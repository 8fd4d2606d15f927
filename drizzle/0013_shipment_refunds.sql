ALTER TABLE "shipments" ADD COLUMN "refund" jsonb;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "refund_check_after" timestamp (6) with time zone;--> statement-breakpoint
CREATE INDEX "shipments_refund_check_after" ON "shipments" USING btree ("refund_check_after") WHERE "shipments"."refund_check_after" is not null;