CREATE TABLE "compliance_snapshots" (
	"organization_id" integer NOT NULL,
	"day" date NOT NULL,
	"compliant" integer NOT NULL,
	"pending" integer NOT NULL,
	"needs_attention" integer NOT NULL,
	"total" integer NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	CONSTRAINT "compliance_snapshots_organization_id_day_pk" PRIMARY KEY("organization_id","day")
);
--> statement-breakpoint
CREATE TABLE "data_extract_chunks" (
	"extract_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"rows" integer NOT NULL,
	"body" text NOT NULL,
	CONSTRAINT "data_extract_chunks_extract_id_seq_pk" PRIMARY KEY("extract_id","seq")
);
--> statement-breakpoint
CREATE TABLE "data_extracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"kind" text NOT NULL,
	"preset" text NOT NULL,
	"range_from" timestamp with time zone NOT NULL,
	"range_to" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"row_estimate" integer,
	"row_count" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"requested_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_caches" (
	"organization_id" integer NOT NULL,
	"report" text NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	CONSTRAINT "report_caches_organization_id_report_pk" PRIMARY KEY("organization_id","report")
);
--> statement-breakpoint
ALTER TABLE "compliance_snapshots" ADD CONSTRAINT "compliance_snapshots_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_extract_chunks" ADD CONSTRAINT "data_extract_chunks_extract_id_data_extracts_id_fk" FOREIGN KEY ("extract_id") REFERENCES "public"."data_extracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_extracts" ADD CONSTRAINT "data_extracts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_extracts" ADD CONSTRAINT "data_extracts_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_caches" ADD CONSTRAINT "report_caches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_extracts_org_idx" ON "data_extracts" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "data_extracts_open_idx" ON "data_extracts" USING btree ("created_at") WHERE "data_extracts"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "data_extracts_expires_idx" ON "data_extracts" USING btree ("expires_at") WHERE "data_extracts"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "device_commands_org_finished_idx" ON "device_commands" USING btree ("organization_id","finished_at","id") WHERE "device_commands"."finished_at" is not null;--> statement-breakpoint
CREATE INDEX "devices_org_pending_idx" ON "devices" USING btree ("organization_id","pending_patches" desc,"id") WHERE "devices"."removed_at" is null and "devices"."pending_patches" > 0;