CREATE TYPE "public"."user_token_purpose" AS ENUM('password_reset', 'email_verification');--> statement-breakpoint
ALTER TYPE "public"."login_failure_kind" ADD VALUE 'link_ip';--> statement-breakpoint
ALTER TYPE "public"."login_failure_kind" ADD VALUE 'link_email';--> statement-breakpoint
CREATE TABLE "user_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" "user_token_purpose" NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_tokens_hash_unique" ON "user_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "user_tokens_user_idx" ON "user_tokens" USING btree ("user_id","purpose") WHERE "user_tokens"."used_at" is null;--> statement-breakpoint
CREATE INDEX "user_tokens_expires_idx" ON "user_tokens" USING btree ("expires_at");