import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * PGlite's shared buffers (decision 0026). Its WebAssembly memory holds them and never shrinks:
 * 128 MB, PostgreSQL's default, left the server at 490-550 MB of RSS under check-in load; 64 MB
 * at 420-470 MB with the same check-in rate; 32 MB cost a quarter of that rate.
 */
export const PGLITE_SHARED_BUFFERS = '64MB';

/** The extensions the migrations create: `pg_trgm` for the device search's trigram index. */
export const PGLITE_OPTIONS: PGliteOptions = {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
};
