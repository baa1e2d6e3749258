CREATE TYPE "public"."account_rbac_role" AS ENUM('global-admin', 'no-global-access');--> statement-breakpoint
CREATE TYPE "public"."banner_type" AS ENUM('danger', 'warning', 'maintenance', 'info', 'thirdparty');--> statement-breakpoint
CREATE TYPE "public"."login_failure_kind" AS ENUM('ip', 'account');--> statement-breakpoint
CREATE TYPE "public"."plan" AS ENUM('patch', 'manage', 'tier3');--> statement-breakpoint
CREATE TYPE "public"."user_status" AS ENUM('pending-invite', 'active', 'disabled');--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_qsg" boolean DEFAULT false NOT NULL,
	CONSTRAINT "accounts_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"messagetype" "banner_type" NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "feature_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"organization_id" integer,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" "login_failure_kind" NOT NULL,
	"key" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"account_id" integer NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"plan" "plan" DEFAULT 'tier3' NOT NULL,
	"trial_end_time" timestamp with time zone,
	"disabled" boolean DEFAULT false NOT NULL,
	"access_key_hash" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"saml" jsonb DEFAULT '{"enabled":false,"redirect":null}'::jsonb NOT NULL,
	"legacy_id" integer,
	"session_max_lifetime_minutes" integer DEFAULT 720 NOT NULL,
	"session_idle_timeout_minutes" integer DEFAULT 30 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organizations_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "user_prefs" (
	"user_id" integer NOT NULL,
	"pref_name" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "user_prefs_user_id_pref_name_pk" PRIMARY KEY("user_id","pref_name")
);
--> statement-breakpoint
CREATE TABLE "user_zone_roles" (
	"user_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "user_zone_roles_user_id_organization_id_pk" PRIMARY KEY("user_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"account_id" integer,
	"email" text NOT NULL,
	"firstname" text NOT NULL,
	"lastname" text NOT NULL,
	"password_hash" text,
	"account_rbac_role" "account_rbac_role" DEFAULT 'no-global-access' NOT NULL,
	"status" "user_status" DEFAULT 'active' NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"failed_signin_count" integer DEFAULT 0 NOT NULL,
	"tfa_enabled" boolean DEFAULT false NOT NULL,
	"saml_enabled" boolean DEFAULT false NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"password_changed_at" timestamp with time zone,
	CONSTRAINT "users_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "users_email_lowercase" CHECK ("users"."email" = lower("users"."email"))
);
--> statement-breakpoint
ALTER TABLE "feature_flags" ADD CONSTRAINT "feature_flags_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_flags" ADD CONSTRAINT "feature_flags_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_parent_id_organizations_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_prefs" ADD CONSTRAINT "user_prefs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_zone_roles" ADD CONSTRAINT "user_zone_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_zone_roles" ADD CONSTRAINT "user_zone_roles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "feature_flags_scope_unique" ON "feature_flags" USING btree ("account_id",coalesce("organization_id", 0),"name");--> statement-breakpoint
CREATE INDEX "login_failures_key_idx" ON "login_failures" USING btree ("kind","key","occurred_at");--> statement-breakpoint
CREATE INDEX "login_failures_time_idx" ON "login_failures" USING btree ("occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_account_name_unique" ON "organizations" USING btree ("account_id",lower("name"));--> statement-breakpoint
CREATE INDEX "organizations_parent_idx" ON "organizations" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "user_zone_roles_org_idx" ON "user_zone_roles" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_account_idx" ON "users" USING btree ("account_id");