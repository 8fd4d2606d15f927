DROP INDEX "shipments_org_created";--> statement-breakpoint
DROP INDEX "shipments_org_status_created";--> statement-breakpoint
DROP INDEX "shipments_org_carrier_created";--> statement-breakpoint
DROP INDEX "trackers_org_created";--> statement-breakpoint
DROP INDEX "trackers_org_status_created";--> statement-breakpoint
CREATE INDEX "shipments_org_created" ON "shipments" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "shipments_org_status_created" ON "shipments" USING btree ("org_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "shipments_org_carrier_created" ON "shipments" USING btree ("org_id","carrier_name","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "trackers_org_created" ON "trackers" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "trackers_org_status_created" ON "trackers" USING btree ("org_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);