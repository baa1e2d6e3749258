import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import type { AppContext } from '../context';
import type { DbHandle } from '../db/client';
import { createLogger } from '../logger';
import { createMailer } from '../modules/mail/mail.transport';
import { createTestClock, type TestClock } from './clock';
import { createTestDb } from './db';

export type TestApp = {
  /** Base URL of the listening server, e.g. `http://127.0.0.1:41234`. */
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  db: AppContext['db'];
  clock: TestClock;
  /** `fetch` against the server: `request('/api/banners', { headers: { cookie } })`. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** Signs in with Basic credentials; returns the response and the `name=value` session cookie. */
  signIn(email: string, password: string, init?: RequestInit): Promise<{ res: Response; cookie: string }>;
  close(): Promise<void>;
};

export type TestAppOptions = {
  /** Share a database between apps of one file; the caller closes it. Default: a fresh one, closed with the app. */
  db?: DbHandle;
  /** Overrides on top of the defaults (no demo, silent logs, no shutdown drain, no console dist). */
  config?: Partial<Config>;
  /** Raw environment for loadConfig, before `config` overrides. */
  env?: NodeJS.ProcessEnv;
  clock?: TestClock;
  logger?: Logger;
  /** Adds routes before the app starts (e.g. an echo route for the query parser). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
};

/** Any JSON, as tests read response bodies (they assert on the shape themselves). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

/** The response's JSON body. */
export const bodyOf = (res: Response): Promise<JsonBody> => res.json();

/** The session cookie (`name=value`) a response sets, or ''. */
export function sessionCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?pw_session=/.test(c));
  return set ? set.split(';')[0]! : '';
}

/** Starts the real app on a free port with a controllable clock. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDb = !options.db;
  const handle = options.db ?? (await createTestDb());
  const config: Config = {
    ...loadConfig({
      DATA_DIR: 'memory://',
      PATCHWELL_DEMO: '0',
      LOG_LEVEL: 'silent',
      SHUTDOWN_DRAIN_MS: '0',
      // Tests tick the policy scheduler by hand, on their own clock.
      POLICY_SCHEDULER_INTERVAL_MS: '0',
      ...options.env,
    }),
    webDistDir: path.join(os.tmpdir(), 'patchwell-no-console-dist'),
    webSsrDir: path.join(os.tmpdir(), 'patchwell-no-console-ssr'),
    ...options.config,
  };
  const clock = options.clock ?? createTestClock();
  const ctx: AppContext = {
    config,
    db: handle.db,
    clock,
    logger: options.logger ?? createLogger('silent'),
    mailer: createMailer(config),
  };
  const app = await buildApp(ctx);
  await options.extend?.(app);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const request = (pathname: string, init?: RequestInit) => fetch(`${address}${pathname}`, init);
  return {
    url: address,
    app,
    ctx,
    db: handle.db,
    clock,
    request,
    async signIn(email, password, init = {}) {
      const res = await request('/api/users/self', {
        ...init,
        headers: {
          authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
          ...(init.headers as Record<string, string> | undefined),
        },
      });
      return { res, cookie: sessionCookieOf(res) };
    },
    async close() {
      await app.close();
      if (ownsDb) await handle.close();
    },
  };
}
