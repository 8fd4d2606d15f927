ALTER TABLE "batches" ADD COLUMN "test_mode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Batches stored before the mode was: live when a row was rated by a live connection, else test (as settled then).
UPDATE "batches" SET "test_mode" = false WHERE EXISTS (
  SELECT 1 FROM "batch_rows" r WHERE r."batch_id" = "batches"."id" AND r."rate" IS NOT NULL
    AND NOT (r."rate"->>'testMode')::boolean
);--> statement-breakpoint
-- Rows above the price cap were "rated" and held; they now wait in their own state.
UPDATE "batch_rows" SET "state" = 'needs_decision' WHERE "state" = 'rated' AND "held" IS NOT NULL;
