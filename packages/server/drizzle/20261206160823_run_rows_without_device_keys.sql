ALTER TABLE "device_commands" DROP CONSTRAINT "device_commands_device_id_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "device_policy_status" DROP CONSTRAINT "device_policy_status_device_id_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "device_policy_status" DROP CONSTRAINT "device_policy_status_policy_id_policies_id_fk";
--> statement-breakpoint
ALTER TABLE "policy_device_results" DROP CONSTRAINT "policy_device_results_device_id_devices_id_fk";
