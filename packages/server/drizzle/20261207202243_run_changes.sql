CREATE TABLE "policy_run_changes" (
	"run_id" integer PRIMARY KEY NOT NULL,
	"version" bigserial NOT NULL
);
