CREATE TABLE "cve_device_states" (
	"organization_id" integer NOT NULL,
	"cve" text NOT NULL,
	"device_id" integer NOT NULL,
	"status" text NOT NULL,
	"severity" text NOT NULL,
	"cvss" real,
	"title" text DEFAULT '' NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"remediated_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cve_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"cve" text NOT NULL,
	"device_id" integer,
	"status" text NOT NULL,
	"cause" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cve_exceptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"cve" text NOT NULL,
	"device_id" integer,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_by" integer,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "remediation_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"type" text DEFAULT 'patch' NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'building' NOT NULL,
	"error" text,
	"row_count" integer DEFAULT 0 NOT NULL,
	"impacted_device_count" integer DEFAULT 0 NOT NULL,
	"statistics" jsonb,
	"created_by" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remediation_deadlines" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"critical_days" integer,
	"high_days" integer,
	"medium_days" integer,
	"low_days" integer,
	"updated_by" integer,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remediation_findings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"line" integer NOT NULL,
	"hostname" text NOT NULL,
	"fqdn" text,
	"ip_addrs" text[] DEFAULT '{}'::text[] NOT NULL,
	"os" text,
	"cve" text NOT NULL,
	"severity" text NOT NULL,
	"severity_raw" text DEFAULT '' NOT NULL,
	"cvss" real,
	"title" text DEFAULT '' NOT NULL,
	"solution_text" text,
	"device_id" integer,
	"matched_by" text,
	"issue" text,
	"solution_id" integer
);
--> statement-breakpoint
CREATE TABLE "remediation_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"command_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"exit_code" integer,
	"output" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "remediation_solutions" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"kind" text NOT NULL,
	"patch_name" text,
	"worklet_id" text,
	"title" text NOT NULL,
	"severity" text NOT NULL,
	"cves" text[] DEFAULT '{}'::text[] NOT NULL,
	"device_ids" integer[] DEFAULT '{}'::int[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remediation_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"batch_id" integer,
	"solution_id" integer,
	"type" text DEFAULT 'patch' NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"patch_name" text,
	"worklet_id" text,
	"cves" text[] DEFAULT '{}'::text[] NOT NULL,
	"severity" text NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_by" integer,
	"executed_by" integer,
	"executed_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cve_device_states" ADD CONSTRAINT "cve_device_states_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cve_device_states" ADD CONSTRAINT "cve_device_states_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cve_events" ADD CONSTRAINT "cve_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cve_events" ADD CONSTRAINT "cve_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cve_exceptions" ADD CONSTRAINT "cve_exceptions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cve_exceptions" ADD CONSTRAINT "cve_exceptions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cve_exceptions" ADD CONSTRAINT "cve_exceptions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cve_exceptions" ADD CONSTRAINT "cve_exceptions_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_batches" ADD CONSTRAINT "remediation_batches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_batches" ADD CONSTRAINT "remediation_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_batches" ADD CONSTRAINT "remediation_batches_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_deadlines" ADD CONSTRAINT "remediation_deadlines_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_deadlines" ADD CONSTRAINT "remediation_deadlines_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_findings" ADD CONSTRAINT "remediation_findings_batch_id_remediation_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."remediation_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_findings" ADD CONSTRAINT "remediation_findings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_jobs" ADD CONSTRAINT "remediation_jobs_task_id_remediation_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."remediation_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_jobs" ADD CONSTRAINT "remediation_jobs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_solutions" ADD CONSTRAINT "remediation_solutions_batch_id_remediation_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."remediation_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_tasks" ADD CONSTRAINT "remediation_tasks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_tasks" ADD CONSTRAINT "remediation_tasks_batch_id_remediation_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."remediation_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_tasks" ADD CONSTRAINT "remediation_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remediation_tasks" ADD CONSTRAINT "remediation_tasks_executed_by_users_id_fk" FOREIGN KEY ("executed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cve_device_states_pk" ON "cve_device_states" USING btree ("organization_id","cve","device_id");--> statement-breakpoint
CREATE INDEX "cve_device_states_device_idx" ON "cve_device_states" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "cve_events_org_cve_idx" ON "cve_events" USING btree ("organization_id","cve","at");--> statement-breakpoint
CREATE INDEX "cve_exceptions_org_cve_idx" ON "cve_exceptions" USING btree ("organization_id","cve");--> statement-breakpoint
CREATE INDEX "remediation_batches_org_idx" ON "remediation_batches" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "remediation_batches_building_idx" ON "remediation_batches" USING btree ("created_at") WHERE "remediation_batches"."status" = 'building';--> statement-breakpoint
CREATE INDEX "remediation_findings_batch_idx" ON "remediation_findings" USING btree ("batch_id","id");--> statement-breakpoint
CREATE INDEX "remediation_findings_issue_idx" ON "remediation_findings" USING btree ("batch_id","issue","id") WHERE "remediation_findings"."issue" is not null;--> statement-breakpoint
CREATE INDEX "remediation_findings_device_cve_idx" ON "remediation_findings" USING btree ("organization_id","cve","device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "remediation_jobs_task_device_unique" ON "remediation_jobs" USING btree ("task_id","device_id");--> statement-breakpoint
CREATE INDEX "remediation_jobs_command_idx" ON "remediation_jobs" USING btree ("command_id") WHERE "remediation_jobs"."command_id" is not null;--> statement-breakpoint
CREATE INDEX "remediation_jobs_device_idx" ON "remediation_jobs" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "remediation_solutions_batch_idx" ON "remediation_solutions" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "remediation_tasks_org_idx" ON "remediation_tasks" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "remediation_tasks_batch_idx" ON "remediation_tasks" USING btree ("batch_id");