CREATE TABLE "idempotency_keys" (
	"user_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"key" text NOT NULL,
	"request" text NOT NULL,
	"status_code" integer,
	"body" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_organization_id_key_pk" PRIMARY KEY("user_id","organization_id","key")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "lock_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "unlock_token_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "unlock_token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_unlock_token_unique" ON "users" USING btree ("unlock_token_hash") WHERE "users"."unlock_token_hash" is not null;--> statement-breakpoint
-- Locks set before locks expired lasted for ever: they now end like a first lock would.
UPDATE "users" SET "locked_until" = now() + interval '15 minutes', "lock_count" = 1 WHERE "locked" AND "locked_until" IS NULL;--> statement-breakpoint
-- Deleted groups left their ids in policies' targets (issue 10, defect 7): drop them.
UPDATE "policies" p SET "server_groups" = coalesce((
  SELECT array_agg(g ORDER BY ord) FROM unnest(p."server_groups") WITH ORDINALITY AS t(g, ord)
  WHERE EXISTS (SELECT 1 FROM "server_groups" sg WHERE sg."id" = t.g AND sg."organization_id" = p."organization_id")
), '{}'::int[])
WHERE EXISTS (
  SELECT 1 FROM unnest(p."server_groups") AS t(g)
  WHERE NOT EXISTS (SELECT 1 FROM "server_groups" sg WHERE sg."id" = t.g AND sg."organization_id" = p."organization_id")
);
