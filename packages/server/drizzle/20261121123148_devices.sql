CREATE TABLE "device_commands" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"type" text NOT NULL,
	"args" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"exit_code" integer,
	"stdout_tail" text,
	"stderr_tail" text,
	"data" jsonb,
	"timeout_s" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_patches" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"name" text NOT NULL,
	"current_version" text,
	"version" text NOT NULL,
	"severity" text NOT NULL,
	"cves" text[] DEFAULT '{}'::text[] NOT NULL,
	"kb" text,
	"source" text,
	"reboot_required" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_software" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"source" text,
	"arch" text
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"machine_id" text NOT NULL,
	"hostname" text NOT NULL,
	"custom_name" text,
	"os_family" text NOT NULL,
	"os_name" text NOT NULL,
	"os_version" text NOT NULL,
	"arch" text DEFAULT '' NOT NULL,
	"agent_version" text NOT NULL,
	"token_hash" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"ip_addrs" text[] DEFAULT '{}'::text[] NOT NULL,
	"ip_addrs_private" text[] DEFAULT '{}'::text[] NOT NULL,
	"last_seen_at" timestamp with time zone,
	"checkin_interval_s" integer DEFAULT 60 NOT NULL,
	"needs_reboot" boolean DEFAULT false NOT NULL,
	"inventory_hash" text,
	"last_inventory_at" timestamp with time zone,
	"detail" jsonb,
	"removed_at" timestamp with time zone,
	"compliance" text DEFAULT 'compliant' NOT NULL,
	"pending_patches" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "devices_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "server_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"parent_id" integer,
	"refresh_interval" integer DEFAULT 1440 NOT NULL,
	"checkin_interval_s" integer DEFAULT 60 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_patches" ADD CONSTRAINT "device_patches_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_software" ADD CONSTRAINT "device_software_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_group_id_server_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."server_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_groups" ADD CONSTRAINT "server_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_groups" ADD CONSTRAINT "server_groups_parent_id_server_groups_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."server_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_device_idx" ON "device_commands" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "device_commands_pending_idx" ON "device_commands" USING btree ("device_id") WHERE "device_commands"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "device_commands_open_deadline_idx" ON "device_commands" USING btree ("deadline_at") WHERE "device_commands"."status" in ('pending', 'in_progress');--> statement-breakpoint
CREATE INDEX "device_patches_device_idx" ON "device_patches" USING btree ("device_id","name");--> statement-breakpoint
CREATE INDEX "device_patches_name_idx" ON "device_patches" USING btree ("name");--> statement-breakpoint
CREATE INDEX "device_software_device_idx" ON "device_software" USING btree ("device_id","name");--> statement-breakpoint
CREATE INDEX "device_software_name_idx" ON "device_software" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_org_machine_unique" ON "devices" USING btree ("organization_id","machine_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_token_hash_unique" ON "devices" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "devices_org_last_seen_idx" ON "devices" USING btree ("organization_id","last_seen_at");--> statement-breakpoint
CREATE INDEX "devices_org_name_idx" ON "devices" USING btree ("organization_id",lower(coalesce("custom_name", "hostname")));--> statement-breakpoint
CREATE INDEX "devices_org_hostname_idx" ON "devices" USING btree ("organization_id",lower("hostname"));--> statement-breakpoint
CREATE INDEX "devices_org_created_idx" ON "devices" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "devices_group_idx" ON "devices" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "devices_tags_idx" ON "devices" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "server_groups_org_name_unique" ON "server_groups" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "server_groups_org_default_unique" ON "server_groups" USING btree ("organization_id") WHERE "server_groups"."is_default";