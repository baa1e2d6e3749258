import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDb } from '../db/client';
import { createLogger } from '../logger';
import { createMailer } from '../modules/mail/mail.transport';
import { systemClock } from '../context';
import { PACKAGE_ROOT } from '../package-root';

/**
 * The committed OpenAPI document (`docs/api/openapi.json`): what the routes' schemas generate,
 * written by `npm run openapi`, so a change to the API shows in review and clients can be
 * generated without running the server. A test fails when the routes drift from it.
 */

export const OPENAPI_DOCUMENT_PATH = path.resolve(PACKAGE_ROOT, '../../docs/api/openapi.json');

export const OPENAPI_REGENERATE_COMMAND = 'npm run openapi';

/**
 * The configuration the document is generated with: the defaults, whatever this shell's
 * environment says, so every machine writes the same file (no `servers` entry, for one).
 */
export const OPENAPI_ENV: NodeJS.ProcessEnv = {
  DATA_DIR: 'memory://',
  PATCHWELL_DEMO: '0',
  LOG_LEVEL: 'silent',
  SHUTDOWN_DRAIN_MS: '0',
  POLICY_SCHEDULER_INTERVAL_MS: '0',
};

/** The document of a ready app, as written to the file (2-space JSON, final newline). */
export function openApiText(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}

/** Builds the app on an in-memory database just to read its document. */
export async function generateOpenApiText(): Promise<string> {
  const config = loadConfig(OPENAPI_ENV);
  const handle = await openDb(config);
  try {
    const app = await buildApp({
      config,
      db: handle.db,
      clock: systemClock,
      logger: createLogger('silent'),
      mailer: createMailer(config),
    });
    try {
      await app.ready();
      return openApiText(app);
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
  }
}
