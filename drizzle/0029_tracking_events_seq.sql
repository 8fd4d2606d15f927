CREATE SEQUENCE "public"."tracking_events_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- The column first, then its default: a volatile default given with the column would rewrite the whole table to fill
-- it; this way the events recorded before keep a null seq (they sort after those of their instant that have one).
ALTER TABLE "tracking_events" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "tracking_events" ALTER COLUMN "seq" SET DEFAULT nextval('tracking_events_seq');
