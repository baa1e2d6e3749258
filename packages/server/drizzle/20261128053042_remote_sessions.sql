CREATE TABLE "remote_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"consent" text,
	"created_by" integer,
	"command_id" integer,
	"token_hash" text NOT NULL,
	"join_by" timestamp with time zone NOT NULL,
	"browser_joined_at" timestamp with time zone,
	"agent_joined_at" timestamp with time zone,
	"relay_node" text,
	"connected_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"bytes_to_device" integer DEFAULT 0 NOT NULL,
	"bytes_from_device" integer DEFAULT 0 NOT NULL,
	"transcript" text,
	"transcript_truncated" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_settings" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"shell_enabled" boolean DEFAULT false NOT NULL,
	"unattended" boolean DEFAULT false NOT NULL,
	"idle_timeout_minutes" integer DEFAULT 15 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remote_sessions" ADD CONSTRAINT "remote_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_sessions" ADD CONSTRAINT "remote_sessions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_sessions" ADD CONSTRAINT "remote_sessions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_settings" ADD CONSTRAINT "remote_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_sessions_org_idx" ON "remote_sessions" USING btree ("organization_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "remote_sessions_token_idx" ON "remote_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "remote_sessions_device_idx" ON "remote_sessions" USING btree ("device_id","state");