ALTER TABLE "devices" ADD COLUMN "compliance_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "policy_device_results" ADD COLUMN "simulated" boolean DEFAULT false NOT NULL;