ALTER TABLE "cve_device_states" DROP CONSTRAINT "cve_device_states_device_id_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "cve_events" DROP CONSTRAINT "cve_events_device_id_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "remediation_findings" DROP CONSTRAINT "remediation_findings_device_id_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "remediation_jobs" DROP CONSTRAINT "remediation_jobs_device_id_devices_id_fk";
