import { readFileSync } from 'node:fs';

/** This server's version, from packages/server/package.json. */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
