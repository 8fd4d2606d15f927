ALTER TABLE "organizations" ADD COLUMN "first_owner_email" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "first_owner_claimed_at" timestamp (6) with time zone;