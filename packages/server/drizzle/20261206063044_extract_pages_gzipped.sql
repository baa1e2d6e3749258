ALTER TABLE "data_extract_chunks" ALTER COLUMN "body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "data_extract_chunks" ADD COLUMN "body_gz" text;--> statement-breakpoint
ALTER TABLE "data_extract_chunks" ADD CONSTRAINT "data_extract_chunks_one_body" CHECK (num_nonnulls("data_extract_chunks"."body", "data_extract_chunks"."body_gz") = 1);--> statement-breakpoint
-- Written by hand (drizzle cannot say it): the gzipped pages are stored as they are, not compressed again.
ALTER TABLE "data_extract_chunks" ALTER COLUMN "body_gz" SET STORAGE EXTERNAL;
