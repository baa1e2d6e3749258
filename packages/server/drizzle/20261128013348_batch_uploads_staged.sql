CREATE TABLE "remediation_batch_uploads" (
	"batch_id" integer PRIMARY KEY NOT NULL,
	"findings" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remediation_batch_uploads" ADD CONSTRAINT "remediation_batch_uploads_batch_id_remediation_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."remediation_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Batches left building by the previous version stored their findings unmatched in
-- remediation_findings; their build now reads them from here (plain JSON) and writes them matched.
INSERT INTO "remediation_batch_uploads" ("batch_id", "findings")
SELECT f."batch_id", jsonb_agg(jsonb_build_object(
	'line', f."line", 'hostname', f."hostname", 'fqdn', f."fqdn", 'ipAddrs', f."ip_addrs", 'os', f."os",
	'cve', f."cve", 'severity', f."severity", 'severityRaw', f."severity_raw", 'cvss', f."cvss",
	'title', f."title", 'solutionText', f."solution_text") ORDER BY f."id")::text
FROM "remediation_findings" f JOIN "remediation_batches" b ON b."id" = f."batch_id" AND b."status" = 'building'
GROUP BY f."batch_id";
--> statement-breakpoint
DELETE FROM "remediation_findings" f USING "remediation_batches" b WHERE b."id" = f."batch_id" AND b."status" = 'building';
