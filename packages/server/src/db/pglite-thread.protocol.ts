/**
 * Messages between the server's thread and the thread that runs PGlite (decision 0029).
 * Everything crosses by structured clone: statements, parameters and rows as values, errors
 * as their fields (PostgreSQL's `code`, `constraint`… are what callers read), a COPY's data
 * as bytes.
 */

/** What the worker opens: a data directory, or memory (from a `dumpDataDir()` image when given). */
export type WorkerSource = {
  dataDir?: string;
  image?: Uint8Array;
  /**
   * PGlite's WebAssembly, compiled by the opener: a thread compiles its own otherwise (~1 s of
   * a thread's start, which the tests pay once a file).
   */
  wasmModule?: WebAssembly.Module;
};

/** What PGlite's `query` takes that can cross: parsers are functions, so only their type ids. */
export type QueryOptions = {
  rowMode?: 'array' | 'object';
  /** Types whose values stay text (drizzle hands PGlite `(value) => value` for each). */
  textTypes?: number[];
  /** A COPY … FROM '/dev/blob' statement's data. */
  blob?: Uint8Array;
};

export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[]; options: QueryOptions; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'close' };

/** PGlite's Results, with a COPY … TO '/dev/blob' statement's data as bytes. */
export type QueryResult = {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  blob?: Uint8Array;
};

export type SerializedError = { message: string; fields: Record<string, unknown> };

export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError }
  | { notify: string; payload: string }
  | { ready: true }
  | { failed: SerializedError };

/** An error as its message and own fields (`code`, `detail`, `constraint`…), which structured clone drops. */
export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, unknown> = { name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function') continue;
    // A field that cannot be cloned (an object holding functions) is left out, not the whole error.
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      /* left out */
    }
  }
  return { message: err.message, fields };
}

/** The error again, on this side: same message and fields, this side's stack. */
export function deserializeError(e: SerializedError): Error {
  const err = new Error(e.message);
  Object.assign(err, e.fields);
  return err;
}
