CREATE TABLE "carrier_pacing" (
	"key" text PRIMARY KEY NOT NULL,
	"next_at" timestamp (6) with time zone NOT NULL
);
