DROP INDEX "batch_rows_state";--> statement-breakpoint
CREATE INDEX "batch_rows_state_line" ON "batch_rows" USING btree ("batch_id","state","line");