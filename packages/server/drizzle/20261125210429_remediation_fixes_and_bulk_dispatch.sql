ALTER TABLE "remediation_jobs" ADD COLUMN "patch_names" text[];--> statement-breakpoint
ALTER TABLE "remediation_solutions" ADD COLUMN "device_patches" jsonb DEFAULT '{}'::jsonb NOT NULL;