ALTER TABLE "device_commands" DROP CONSTRAINT "device_commands_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "device_policy_status" DROP CONSTRAINT "device_policy_status_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "policy_device_results" DROP CONSTRAINT "policy_device_results_policy_id_policies_id_fk";
--> statement-breakpoint
ALTER TABLE "policy_device_results" DROP CONSTRAINT "policy_device_results_organization_id_organizations_id_fk";
