DROP INDEX "activity_log_org_time_idx";--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "organization_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "device_id" integer;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "actor_name" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "object_name" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_log_zone_time_idx" ON "activity_log" USING btree ("organization_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "activity_log_zone_user_time_idx" ON "activity_log" USING btree ("organization_id","user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "activity_log_account_time_idx" ON "activity_log" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "activity_log"."organization_id" is null;--> statement-breakpoint
-- Events written before account_id existed belong to their zone's account.
UPDATE "activity_log" SET "account_id" = "organizations"."account_id" FROM "organizations" WHERE "organizations"."id" = "activity_log"."organization_id";
