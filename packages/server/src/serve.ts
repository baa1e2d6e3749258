/**
 * The server once its database is open (main.ts): first account or demo, HTTP, the periodic
 * jobs, the demo's simulated devices. Stops gracefully on SIGTERM/SIGINT: /readyz turns 503,
 * after SHUTDOWN_DRAIN_MS no new connections, in-flight requests finish, then the database
 * closes (PGlite would keep the process alive).
 */
import { buildApp } from './app';
import type { Config } from './config';
import { systemClock, type AppContext } from './context';
import type { DbHandle } from './db/client';
import type { Logger } from 'pino';
import { BootstrapError, bootstrap } from './modules/accounts/bootstrap';
import { backfillCompliance } from './modules/devices/compliance.store';
import { startDemoFleet } from './modules/accounts/demo.fleet';
import { startDemoScans } from './modules/accounts/demo.scan';
import { startCommandSweeper } from './modules/commands/commands.sweep';
import { startTaskJobSync } from './modules/remediation/tasks/task-results.service';
import { createMailer } from './modules/mail/mail.transport';
import { startSweeper } from './modules/auth/sweep.service';
import { startReportJobs } from './modules/reports/reports.jobs';
import { startReportScheduleJobs } from './modules/report-schedules/schedules.jobs';
import { startWebhookJobs } from './modules/webhooks/webhooks.worker';
import { startTrialEndJob } from './modules/zones/trial-end.service';
import { startBillingJobs } from './modules/billing/billing.jobs';
import { shutdownGracefully } from './shutdown';

/** How long requests in flight may take to finish after the drain before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

export async function serve({
  config,
  logger,
  handle,
  startedAt,
}: {
  config: Config;
  logger: Logger;
  handle: DbHandle;
  startedAt: number;
}): Promise<void> {
  const ctx: AppContext = { config, db: handle.db, clock: systemClock, logger, mailer: createMailer(config) };

  const boot = await bootstrap(ctx).catch(async (err: unknown) => {
    if (err instanceof BootstrapError) console.error(err.message);
    else logger.fatal({ err }, 'cannot initialise the database');
    await handle.close();
    process.exit(1);
  });
  // Devices from before the one compliance rule (or just seeded) get their state and reason.
  await backfillCompliance(ctx.db, ctx.clock.now());

  const app = await buildApp(ctx);
  const address = await app.listen({ port: config.port, host: config.host }).catch(async (err: unknown) => {
    logger.fatal({ err }, `cannot listen on ${config.host}:${config.port}`);
    await handle.close();
    process.exit(1);
  });

  const port = new URL(address).port;
  const consoleUrl = `${config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`}/console/`;
  const lines = [
    `Patchwell is running: ${consoleUrl}  (started in ${Math.round(performance.now() - startedAt)} ms)`,
    `Database: ${handle.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite (${config.pgliteDataDir})`}`,
  ];
  if (boot.created === 'admin') lines.push(`Created the first administrator: ${config.admin?.email}`);
  if (boot.demoSignIn) {
    lines.push(
      `${boot.created === 'demo' ? 'Created the demo account. ' : ''}Demo sign-in: ${boot.demoSignIn.email} / ${boot.demoSignIn.password}`,
    );
  }
  // The demo's simulated devices talk to this server over HTTP like any agent, so they start
  // once it listens; a failure leaves the demo without them rather than stopping the server.
  const demoFleet = config.demo
    ? await startDemoFleet(ctx, address, config.demoDevices, config.demoSpeed).catch((err: unknown) => {
        logger.warn({ err }, 'cannot start the demo’s simulated devices');
        return undefined;
      })
    : undefined;
  if (demoFleet?.zones.length) {
    lines.push(
      `Simulated demo devices: ${demoFleet.zones.map((z) => `${z.count} in ${z.name}`).join(', ')} (PATCHWELL_DEMO_DEVICES=0 turns them off)`,
    );
  }
  // The demo's sample scan waits for those devices' inventories, in the background.
  const demoScans = demoFleet ? startDemoScans({ ...ctx, batchBuilder: app.batchBuilder }, demoFleet) : undefined;
  // Plain stdout, not the JSON log: this is what a person starting the server reads.
  process.stdout.write(`${lines.join('\n')}\n`);

  const sweeper = startSweeper(ctx);
  const commandSweeper = startCommandSweeper(ctx);
  // Remediation jobs take the commands' states that raise no event (handed out, timed out).
  const taskJobSync = startTaskJobSync(ctx);
  // Today's compliance snapshot (now, then hourly) and the data extract worker.
  const reportJobs = startReportJobs(ctx);
  // Scheduled reports: due times claimed once across nodes, mailed with their CSV.
  const reportScheduleJobs = startReportScheduleJobs(ctx);
  // Outgoing webhooks: the delivery worker and the offline watch.
  const webhookJobs = startWebhookJobs(ctx);
  // Trials that ended: marked expired, zones beyond the first disabled unless on Complete (once across nodes).
  const trialEndJob = startTrialEndJob(ctx);
  // Billing: ended days metered once, ended months invoiced once, across nodes.
  const billingJobs = startBillingJobs(ctx);

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownDrainMs + SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await shutdownGracefully({
        app,
        jobs: [
          ...(demoScans ? [demoScans] : []),
          ...(demoFleet ? [demoFleet] : []),
          sweeper,
          commandSweeper,
          taskJobSync,
          reportJobs,
          reportScheduleJobs,
          webhookJobs,
          trialEndJob,
          billingJobs,
        ],
        db: handle,
        drainMs: config.shutdownDrainMs,
      });
      process.exitCode = 0;
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exitCode = 1;
    }
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
