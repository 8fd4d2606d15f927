-- `?q=` is a substring search (ILIKE '%…%') over shipments.search_text. A trigram GIN index answers it without
-- reading every shipment of the organization. pg_trgm ships with PostgreSQL and PGlite and is a trusted extension,
-- but a locked-down server may still refuse it: then the search keeps working, only slower (no index).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%); shipment search runs without a trigram index', SQLERRM;
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX IF NOT EXISTS shipments_search_trgm ON shipments USING gin (search_text gin_trgm_ops)';
  END IF;
END
$$;
