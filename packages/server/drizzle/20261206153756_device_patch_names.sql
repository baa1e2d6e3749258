CREATE TABLE "device_patch_names" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"names" text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_patch_names" ADD CONSTRAINT "device_patch_names_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Written by hand: the devices inventoried before this table get their names from their stored patches.
INSERT INTO "device_patch_names" ("device_id", "names")
SELECT "device_id", array_agg("name" ORDER BY "first")
  FROM (SELECT "device_id", "name", min("id") AS "first" FROM "device_patches" GROUP BY "device_id", "name") "p"
 GROUP BY "device_id";
