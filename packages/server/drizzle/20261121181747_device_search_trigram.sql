-- Written by hand (drizzle cannot express it): the device list's search by name or address
-- as a trigram index, so `search=` reads the matching devices instead of every device.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- array_to_string is only STABLE, so an index cannot use it directly; over text arrays it
-- does not depend on any setting, so this wrapper may say IMMUTABLE.
CREATE OR REPLACE FUNCTION device_search_text(custom_name text, hostname text, ip_addrs text[], ip_addrs_private text[])
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(coalesce(custom_name, '') || E'\n' || hostname || E'\n' || array_to_string(ip_addrs || ip_addrs_private, E'\n')) $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "devices_search_trgm_idx" ON "devices"
  USING gin (device_search_text("custom_name", "hostname", "ip_addrs", "ip_addrs_private") gin_trgm_ops);
