import { defineConfig } from 'drizzle-kit';

// `npm run db:new -- <name>` writes a new forward-only migration into ./drizzle from the
// difference between the schema files and the last snapshot. No database is needed.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/db/schema.ts',
    './src/db/devices.schema.ts',
    './src/db/policies.schema.ts',
    './src/db/host-imports.schema.ts',
    './src/db/installers.schema.ts',
    './src/db/remediation.schema.ts',
    './src/db/reports.schema.ts',
    './src/db/report-schedules.schema.ts',
    './src/db/activity.schema.ts',
    './src/db/webhooks.schema.ts',
    './src/db/auth.schema.ts',
    './src/db/sso.schema.ts',
    './src/db/mfa.schema.ts',
    './src/db/remote.schema.ts',
    './src/db/maintenance.schema.ts',
    './src/db/apns.schema.ts',
    './src/db/billing.schema.ts',
  ],
  out: './drizzle',
  // Timestamped file names (STYLE.md): two branches adding a migration do not collide on 0001.
  migrations: { prefix: 'timestamp' },
});
