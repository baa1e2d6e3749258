ALTER TABLE "policy_device_results" DROP CONSTRAINT "policy_device_results_run_id_policy_runs_id_fk";
