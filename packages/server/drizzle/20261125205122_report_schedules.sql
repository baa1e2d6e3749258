CREATE TABLE "report_schedule_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"retry_at" timestamp with time zone,
	"csv" text,
	"summary" text,
	"row_count" integer,
	"error" text,
	"outbox_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"frequency" text NOT NULL,
	"day_of_week" smallint,
	"day_of_month" smallint,
	"time" text NOT NULL,
	"timezone" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"next_due_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "report_schedule_sends" ADD CONSTRAINT "report_schedule_sends_schedule_id_report_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedule_sends" ADD CONSTRAINT "report_schedule_sends_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_schedule_sends_due_unique" ON "report_schedule_sends" USING btree ("schedule_id","due_at");--> statement-breakpoint
CREATE INDEX "report_schedule_sends_open_idx" ON "report_schedule_sends" USING btree ("due_at") WHERE "report_schedule_sends"."status" in ('pending', 'sending', 'failed');--> statement-breakpoint
CREATE INDEX "report_schedules_org_idx" ON "report_schedules" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "report_schedules_due_idx" ON "report_schedules" USING btree ("next_due_at") WHERE "report_schedules"."enabled" and "report_schedules"."next_due_at" is not null;