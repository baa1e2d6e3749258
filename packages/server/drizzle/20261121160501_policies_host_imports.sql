CREATE TABLE "activity_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"via" text NOT NULL,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_policy_status" (
	"device_id" integer NOT NULL,
	"policy_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"status" text NOT NULL,
	"last_result_id" integer,
	"last_result_status" text,
	"evaluation_exit_code" integer,
	"last_run_at" timestamp with time zone,
	"next_patch_time" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_policy_status_device_id_policy_id_pk" PRIMARY KEY("device_id","policy_id")
);
--> statement-breakpoint
CREATE TABLE "policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'inactive' NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"schedule_days" integer DEFAULT 0 NOT NULL,
	"schedule_weeks_of_month" integer DEFAULT 0 NOT NULL,
	"schedule_months" integer DEFAULT 0 NOT NULL,
	"schedule_time" text DEFAULT '00:00' NOT NULL,
	"scheduled_timezone" text DEFAULT 'UTC+0000' NOT NULL,
	"use_scheduled_timezone" boolean DEFAULT true NOT NULL,
	"server_groups" integer[] DEFAULT '{}'::int[] NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"community_worklet_id" integer,
	"needs_configuration" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "policies_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "policy_approvals" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"policy_id" integer NOT NULL,
	"patch_name" text NOT NULL,
	"patch_version" text NOT NULL,
	"severity" text,
	"os_family" text DEFAULT 'linux' NOT NULL,
	"cves" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"device_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "policy_clone_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" integer NOT NULL,
	"source_policy_id" integer NOT NULL,
	"policy_name" text NOT NULL,
	"policy_type" text NOT NULL,
	"target_zone_ids" integer[] NOT NULL,
	"copies" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "policy_device_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"policy_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"status" text NOT NULL,
	"command_id" integer,
	"command_type" text,
	"args" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"selected_patches" text[] DEFAULT '{}'::text[] NOT NULL,
	"exit_code" integer,
	"stdout_tail" text,
	"stderr_tail" text,
	"message" text,
	"created_at" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "policy_evaluations" (
	"command_id" integer PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"policy_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"tz_key" text,
	"scheduled_for" timestamp with time zone,
	"device_ids" integer[],
	"device_count" integer DEFAULT 0 NOT NULL,
	"success_count" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"pending_count" integer DEFAULT 0 NOT NULL,
	"error_message" text,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "policy_runs_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "policy_schedule_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"tz_key" text NOT NULL,
	"next_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"hostname" text NOT NULL,
	"ip_addrs" text[] DEFAULT '{}'::text[] NOT NULL,
	"os_family" text,
	"group_id" integer,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"serial" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"imported_by" integer,
	"imported_at" timestamp with time zone NOT NULL,
	"enrolled_device_id" integer,
	"enrolled_at" timestamp with time zone,
	"status" text DEFAULT 'awaiting_agent' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "policy_result_id" integer;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_policy_status" ADD CONSTRAINT "device_policy_status_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_policy_status" ADD CONSTRAINT "device_policy_status_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_policy_status" ADD CONSTRAINT "device_policy_status_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_approvals" ADD CONSTRAINT "policy_approvals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_approvals" ADD CONSTRAINT "policy_approvals_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_approvals" ADD CONSTRAINT "policy_approvals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_clone_jobs" ADD CONSTRAINT "policy_clone_jobs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_clone_jobs" ADD CONSTRAINT "policy_clone_jobs_source_policy_id_policies_id_fk" FOREIGN KEY ("source_policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_clone_jobs" ADD CONSTRAINT "policy_clone_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_device_results" ADD CONSTRAINT "policy_device_results_run_id_policy_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."policy_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_device_results" ADD CONSTRAINT "policy_device_results_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_device_results" ADD CONSTRAINT "policy_device_results_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_device_results" ADD CONSTRAINT "policy_device_results_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_evaluations" ADD CONSTRAINT "policy_evaluations_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_evaluations" ADD CONSTRAINT "policy_evaluations_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_runs" ADD CONSTRAINT "policy_runs_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_runs" ADD CONSTRAINT "policy_runs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_runs" ADD CONSTRAINT "policy_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_schedule_slots" ADD CONSTRAINT "policy_schedule_slots_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_imports" ADD CONSTRAINT "device_imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_imports" ADD CONSTRAINT "device_imports_group_id_server_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."server_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_imports" ADD CONSTRAINT "device_imports_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_imports" ADD CONSTRAINT "device_imports_enrolled_device_id_devices_id_fk" FOREIGN KEY ("enrolled_device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_log_org_time_idx" ON "activity_log" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "activity_log_object_idx" ON "activity_log" USING btree ("organization_id","object_type","object_id");--> statement-breakpoint
CREATE INDEX "device_policy_status_policy_idx" ON "device_policy_status" USING btree ("policy_id","status");--> statement-breakpoint
CREATE INDEX "policies_org_idx" ON "policies" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "policies_org_name_idx" ON "policies" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "policy_approvals_unique" ON "policy_approvals" USING btree ("policy_id","patch_name","patch_version");--> statement-breakpoint
CREATE INDEX "policy_approvals_org_status_idx" ON "policy_approvals" USING btree ("organization_id","status");--> statement-breakpoint
CREATE INDEX "policy_clone_jobs_org_idx" ON "policy_clone_jobs" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_device_results_run_device_unique" ON "policy_device_results" USING btree ("run_id","device_id");--> statement-breakpoint
CREATE INDEX "policy_device_results_device_idx" ON "policy_device_results" USING btree ("device_id","policy_id","created_at");--> statement-breakpoint
CREATE INDEX "policy_device_results_command_idx" ON "policy_device_results" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "policy_device_results_open_idx" ON "policy_device_results" USING btree ("status") WHERE "policy_device_results"."status" in ('pending', 'in_progress');--> statement-breakpoint
CREATE INDEX "policy_evaluations_device_idx" ON "policy_evaluations" USING btree ("device_id","policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_runs_schedule_unique" ON "policy_runs" USING btree ("policy_id","tz_key","scheduled_for") WHERE "policy_runs"."scheduled_for" is not null;--> statement-breakpoint
CREATE INDEX "policy_runs_policy_idx" ON "policy_runs" USING btree ("policy_id","created_at");--> statement-breakpoint
CREATE INDEX "policy_runs_open_idx" ON "policy_runs" USING btree ("status") WHERE "policy_runs"."status" in ('created', 'queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "policy_schedule_slots_unique" ON "policy_schedule_slots" USING btree ("policy_id","tz_key");--> statement-breakpoint
CREATE INDEX "policy_schedule_slots_due_idx" ON "policy_schedule_slots" USING btree ("next_run_at") WHERE "policy_schedule_slots"."next_run_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "device_imports_org_awaiting_hostname_unique" ON "device_imports" USING btree ("organization_id","hostname") WHERE "device_imports"."status" = 'awaiting_agent';--> statement-breakpoint
CREATE INDEX "device_imports_org_awaiting_short_idx" ON "device_imports" USING btree ("organization_id",split_part("hostname", '.', 1)) WHERE "device_imports"."status" = 'awaiting_agent';--> statement-breakpoint
CREATE INDEX "device_imports_org_imported_idx" ON "device_imports" USING btree ("organization_id","imported_at");