/**
 * Starts the Patchwell server: configuration, then the database (opened and migrated) while
 * the rest of the server's modules load, then serve.ts. Loading the modules (about 1.4 s
 * through tsx) and opening PGlite (0.4 to 0.9 s) are independent, so a start pays the longer
 * of the two, not their sum.
 */
import { ConfigError, loadConfig, type Config } from './config';
import { openDb } from './db/client';
import { boundHeapGrowth } from './heap';
import { chooseLogFormat, createLogger } from './logger';

const startedAt = performance.now();
boundHeapGrowth();

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

const logger = createLogger(config.logLevel, { format: chooseLogFormat(config.logFormat, config.environment) });
const serving = import('./serve');
const handle = await openDb(config).catch((err: unknown) => {
  logger.fatal({ err }, 'cannot open the database');
  process.exit(1);
});
const { serve } = await serving;
await serve({ config, logger, handle, startedAt });
