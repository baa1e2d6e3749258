CREATE TABLE "apns_settings" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"csr_pem" text,
	"csr_key_sealed" text,
	"csr_created_at" timestamp with time zone,
	"csr_created_by" integer,
	"certificate_pem" text,
	"certificate_key_sealed" text,
	"certificate_uploaded_at" timestamp with time zone,
	"certificate_uploaded_by" integer,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apns_settings" ADD CONSTRAINT "apns_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apns_settings" ADD CONSTRAINT "apns_settings_csr_created_by_users_id_fk" FOREIGN KEY ("csr_created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apns_settings" ADD CONSTRAINT "apns_settings_certificate_uploaded_by_users_id_fk" FOREIGN KEY ("certificate_uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;