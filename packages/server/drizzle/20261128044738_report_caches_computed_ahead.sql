ALTER TABLE "report_caches" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_caches" ADD COLUMN "refresh_claimed_at" timestamp with time zone;--> statement-breakpoint
-- Caches already there count as asked for when computed, so the zones looked at lately stay warm.
UPDATE "report_caches" SET "requested_at" = "computed_at";
