import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

export type ShutdownParts = {
  app: FastifyInstance;
  /** Background jobs (the sweeper); stopped first, each waiting for work in progress. */
  jobs: { stop(): Promise<void> }[];
  /** Closed last, once no request or job can use it. */
  db: { close(): Promise<void> };
  /** How long to keep serving after /readyz turns 503 (`SHUTDOWN_DRAIN_MS`). */
  drainMs: number;
  /** Waits out the drain (tests end it when they choose instead of on the wall clock). */
  drain?: (ms: number) => Promise<unknown>;
};

/**
 * Stops the server gracefully. At once: /readyz answers 503 and responses ask clients to
 * close their keep-alive connections. After `drainMs`, during which requests are still
 * served so load balancers can notice: the listener closes, requests in flight finish
 * (new ones on open connections get 503), and then the database closes.
 */
export async function shutdownGracefully({ app, jobs, db, drainMs, drain = sleep }: ShutdownParts): Promise<void> {
  app.markShuttingDown();
  await Promise.all([drain(drainMs), ...jobs.map((job) => job.stop())]);
  await app.close();
  await db.close();
}
