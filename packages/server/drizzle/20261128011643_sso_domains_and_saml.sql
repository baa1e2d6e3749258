CREATE TYPE "public"."domain_status" AS ENUM('pending', 'verified');--> statement-breakpoint
CREATE TYPE "public"."saml_provision_type" AS ENUM('invite', 'zone_rbac');--> statement-breakpoint
CREATE TABLE "account_domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" "domain_status" DEFAULT 'pending' NOT NULL,
	"verification_token" text NOT NULL,
	"connection_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"last_checked_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	CONSTRAINT "account_domains_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "saml_assertion_ids" (
	"connection_id" integer NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_assertion_ids_connection_id_assertion_id_pk" PRIMARY KEY("connection_id","assertion_id")
);
--> statement-breakpoint
CREATE TABLE "saml_connection_zone_roles" (
	"connection_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "saml_connection_zone_roles_connection_id_organization_id_pk" PRIMARY KEY("connection_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "saml_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"provision_type" "saml_provision_type" NOT NULL,
	"idp_metadata_xml" text,
	"idp_entity_id" text NOT NULL,
	"idp_sso_url" text NOT NULL,
	"idp_certificates" jsonb NOT NULL,
	"default_role_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_connections_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "saml_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"redirect_path" text,
	"organization_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "saml_user_links" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"name_id" text NOT NULL,
	"last_signin_at" timestamp with time zone NOT NULL,
	"provisioned" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "require_mfa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "require_mfa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "account_domains" ADD CONSTRAINT "account_domains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_domains" ADD CONSTRAINT "account_domains_connection_id_saml_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."saml_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_assertion_ids" ADD CONSTRAINT "saml_assertion_ids_connection_id_saml_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."saml_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_connection_zone_roles" ADD CONSTRAINT "saml_connection_zone_roles_connection_id_saml_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."saml_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_connection_zone_roles" ADD CONSTRAINT "saml_connection_zone_roles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_connections" ADD CONSTRAINT "saml_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_connection_id_saml_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."saml_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_user_links" ADD CONSTRAINT "saml_user_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_user_links" ADD CONSTRAINT "saml_user_links_connection_id_saml_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."saml_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_domains_account_name_unique" ON "account_domains" USING btree ("account_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "account_domains_verified_name_unique" ON "account_domains" USING btree ("name") WHERE "account_domains"."status" = 'verified';--> statement-breakpoint
CREATE INDEX "account_domains_connection_idx" ON "account_domains" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "saml_assertion_ids_expires_idx" ON "saml_assertion_ids" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "saml_connections_account_idx" ON "saml_connections" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "saml_requests_expires_idx" ON "saml_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "saml_user_links_connection_idx" ON "saml_user_links" USING btree ("connection_id");