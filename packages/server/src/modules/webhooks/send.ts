import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Target } from './target';

/** One attempt's answer: the status and the start of the body, or why there was none. */
export type AttemptResult = {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
};

/** Characters of an answer's body kept for the log. */
export const RESPONSE_EXCERPT_MAX = 500;
/** Bytes of an answer read at most; the rest is dropped unread. */
const RESPONSE_READ_MAX = 4096;

/**
 * POSTs `body` to the checked target, connecting to its checked address (the host name
 * still goes in `Host` and TLS's SNI and certificate check). Redirects are not followed
 * (the answer is the 3xx). Gives up after `timeoutMs`, whatever is slow.
 */
export function postOnce(
  target: Target,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  now: () => number = Date.now,
): Promise<AttemptResult> {
  const started = now();
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Math.max(0, Math.round(now() - started)) });
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_READ_MAX) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_READ_MAX) res.destroy();
        });
        const finish = () => {
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_READ_MAX).toString('utf8');
          const code = res.statusCode ?? null;
          const ok = code !== null && code >= 200 && code < 300;
          done({
            statusCode: code,
            excerpt: text ? text.slice(0, RESPONSE_EXCERPT_MAX) : null,
            error: ok ? null : `The endpoint answered HTTP ${code}.`,
          });
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ statusCode: null, excerpt: null, error: `No answer within ${Math.round(timeoutMs / 1000)} s.` });
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ statusCode: null, excerpt: null, error: `Could not deliver: ${err.code ?? err.message}.` }),
    );
    req.end(body);
  });
}
