import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ZPassword } from '@patchwell/core/auth/password';
import { ZRateTable } from '@patchwell/core/billing/billing.schema';
import { RATES, type RateTable } from '@patchwell/core/billing/pricing';
import { ZEmail } from '@patchwell/core/auth/signup.schema';
import { INSTALLER_MAX_BYTES } from '@patchwell/core/policies/policy-configuration.schema';
import type { FeatureFlag } from '@patchwell/core/shell/flags';
import { parseFlagDefaults } from '@patchwell/core/shell/flags.schema';
import { PACKAGE_ROOT } from './package-root';

/**
 * Server configuration, read once from environment variables at start-up and validated
 * with zod. An invalid value stops the server with one line per bad variable (see
 * {@link loadConfig}). Every variable is optional; the defaults run a single-node server
 * on 127.0.0.1:8080 with an embedded database and a demo account.
 */

/** `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`: what `dns.Resolver#setServers` takes. */
function isDnsServer(s: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  if (bracketed) return isIP(bracketed[1]!) === 6 && (!bracketed[2] || Number(bracketed[2]) <= 65535);
  const v4 = /^([\d.]+)(?::(\d{1,5}))?$/.exec(s);
  if (v4) return isIP(v4[1]!) === 4 && (!v4[2] || Number(v4[2]) <= 65535);
  return isIP(s) === 6;
}

const flag = (name: string, fallback: boolean) =>
  z
    .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'], {
      error: `${name} must be one of 1, 0, true, false, on, off, yes, no.`,
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['1', 'true', 'on', 'yes'].includes(v)));

const httpUrl = (name: string) =>
  z
    .url({ protocol: /^https?$/, error: `${name} must be an http:// or https:// URL.` })
    .transform((v) => v.replace(/\/+$/, ''));

/** 32 bytes from 64 hex digits or base64 (standard or url-safe), else undefined. */
function parseSecretKey(value: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) return undefined;
  const key = Buffer.from(value, 'base64');
  return key.length === 32 ? key : undefined;
}

const ZEnv = z
  .object({
    /** TCP port to listen on. Default `8080`. `0` picks a free port (tests). */
    PORT: z.coerce
      .number({ error: 'PORT must be a number between 0 and 65535.' })
      .int('PORT must be a number between 0 and 65535.')
      .min(0, 'PORT must be a number between 0 and 65535.')
      .max(65535, 'PORT must be a number between 0 and 65535.')
      .default(8080),
    /** Address to listen on. Default `127.0.0.1` (this machine only); `0.0.0.0` listens on every interface. */
    HOST: z.string().min(1, 'HOST must not be empty.').default('127.0.0.1'),
    /**
     * PostgreSQL connection string (`postgres://user:password@host:5432/db`). When set, the
     * server uses that PostgreSQL (13 or later) through node-postgres; required to run
     * several server nodes. When unset, the embedded PGlite database stores its data in
     * `DATA_DIR/pglite`.
     */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://.')
      .optional(),
    /**
     * Directory for data kept on disk: the embedded database lives in `DATA_DIR/pglite`.
     * Default `./data` (relative to the working directory). `memory://` keeps the embedded
     * database in memory only; everything is lost on exit (tests, throw-away demos).
     */
    DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty.').default('./data'),
    /**
     * Where the embedded PGlite database runs: `worker` (default), a thread of its own, so
     * the server answers requests while a statement runs (decision 0029); `main`, the
     * server's own thread (one thread less; every statement holds requests back).
     */
    PGLITE_THREAD: z.enum(['worker', 'main'], { error: 'PGLITE_THREAD must be worker or main.' }).default('worker'),
    /**
     * The address people use to reach the console, e.g. `https://patch.example.com`. Used
     * for the Origin check, absolute links and security settings: when it starts with
     * `https://`, session cookies are `Secure` and named `__Host-pw_session`, HSTS is sent
     * and the CSP upgrades insecure requests. Unset: the server assumes plain HTTP and builds
     * mailed links (unlock, invitation) from the Host header only when that names this
     * machine (localhost, 127.0.0.0/8, ::1); from any other, no unlock link is mailed and
     * inviting answers 409 (fine on localhost, not for production).
     */
    PATCHWELL_PUBLIC_URL: httpUrl('PATCHWELL_PUBLIC_URL').optional(),
    /**
     * This node's address as the other server nodes reach it (`http://10.0.0.5:8080`), when
     * several nodes share one database: a remote session's two ends may reach different
     * nodes, and the second one forwards its end to the node that relays the session
     * (decision 0016). Unset: a node listening on a loopback address is reached there;
     * otherwise no other node can forward to it.
     */
    PATCHWELL_NODE_URL: httpUrl('PATCHWELL_NODE_URL').optional(),
    /**
     * E-mail of the first administrator. Together with `PATCHWELL_ADMIN_PASSWORD` (both or
     * neither): on an empty database, the server creates the first account, its first
     * zone and this global administrator. Ignored once any account exists.
     */
    PATCHWELL_ADMIN_EMAIL: ZEmail.optional(),
    /** Password of the first administrator: 12 to 128 characters, not a common password. */
    PATCHWELL_ADMIN_PASSWORD: ZPassword.optional(),
    /**
     * `1` (default) or `0`. When on and the database is empty at start-up, the server creates
     * a demo account with three zones, users with different roles and a welcome banner;
     * its sign-in is printed at start. Turn off for production. An administrator created
     * through `PATCHWELL_ADMIN_*` makes the database non-empty, so no demo is added then.
     */
    PATCHWELL_DEMO: flag('PATCHWELL_DEMO', true),
    /**
     * Simulated devices the demo account gets while the server runs with `PATCHWELL_DEMO` on:
     * a whole number from 0 to 1000, default `32` (three quarters in the "Headquarters" zone,
     * the rest in "Cloud Servers"). They run in the server's process through the agent's fleet
     * simulator, enrol with the zones' access keys and answer commands. `0` turns them off.
     */
    PATCHWELL_DEMO_DEVICES: z.coerce
      .number({ error: 'PATCHWELL_DEMO_DEVICES must be a whole number between 0 and 1000.' })
      .int('PATCHWELL_DEMO_DEVICES must be a whole number between 0 and 1000.')
      .min(0, 'PATCHWELL_DEMO_DEVICES must be a whole number between 0 and 1000.')
      .max(1000, 'PATCHWELL_DEMO_DEVICES must be a whole number between 0 and 1000.')
      .default(32),
    /**
     * How many times faster than real machines the demo's simulated devices carry out commands:
     * a whole number from 1 (default: an update takes the 10 to 60 s a real one does) to 100.
     * The browser journeys run them faster, so that they wait for results, not for time.
     */
    PATCHWELL_DEMO_SPEED: z.coerce
      .number({ error: 'PATCHWELL_DEMO_SPEED must be a whole number between 1 and 100.' })
      .int('PATCHWELL_DEMO_SPEED must be a whole number between 1 and 100.')
      .min(1, 'PATCHWELL_DEMO_SPEED must be a whole number between 1 and 100.')
      .max(100, 'PATCHWELL_DEMO_SPEED must be a whole number between 1 and 100.')
      .default(1),
    /** Log level: `fatal`, `error`, `warn`, `info` (default), `debug`, `trace` or `silent`. Agents' routine requests log at `debug`. */
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent.',
      })
      .default('info'),
    /**
     * `json` (one JSON object a line, for log collectors) or `pretty` (lines a person reads).
     * Unset: `pretty` when stdout is a terminal or `NODE_ENV=development`, else `json`.
     */
    LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'LOG_FORMAT must be json or pretty.' }).optional(),
    /** Base of the documentation site; the console's help links (Knowledge Base, Release Notes, …) are built from it. Default `https://docs.patchwell.dev`. */
    PATCHWELL_HELP_BASE_URL: httpUrl('PATCHWELL_HELP_BASE_URL').default('https://docs.patchwell.dev'),
    /** Where "contact support" links point. Default `<PATCHWELL_HELP_BASE_URL>/support`. */
    PATCHWELL_SUPPORT_URL: httpUrl('PATCHWELL_SUPPORT_URL').optional(),
    /**
     * Feature flag defaults over core's, e.g. `global_devices_table=1,remote_control=0`. Accounts
     * and zones override them (Global setup › Settings, `PUT /api/accounts/{id}/flags`).
     */
    PATCHWELL_FLAGS: z
      .string()
      .optional()
      .transform((v, c) => {
        if (v === undefined) return {};
        const parsed = parseFlagDefaults(v);
        if (parsed.ok) return parsed.flags;
        c.addIssue({ code: 'custom', message: `PATCHWELL_FLAGS: ${parsed.problems.join('; ')}.` });
        return z.NEVER;
      }),
    /**
     * The price list, as JSON: `{"monthly": {"patch": 200, "manage": 350, "full_annual_base_rate": 500},
     * "yearly": {…}}`, whole cents per device per month (core's `ZRateTable`). Unset: core's
     * default list (billing/pricing.ts). Invoices already issued keep the prices they were issued at.
     */
    BILLING_RATES: z
      .string()
      .optional()
      .transform((v, c) => {
        if (v === undefined) return RATES;
        let json: unknown;
        try {
          json = JSON.parse(v);
        } catch {
          c.addIssue({ code: 'custom', message: 'BILLING_RATES must be JSON (see the README).' });
          return z.NEVER;
        }
        const rates = ZRateTable.safeParse(json);
        if (rates.success) return rates.data;
        c.addIssue({
          code: 'custom',
          message: `BILLING_RATES: ${rates.error.issues.map((i) => `${i.path.join('.') || 'the list'}: ${i.message}`).join('; ')}.`,
        });
        return z.NEVER;
      }),
    /** `1` (default) or `0`: whether anyone may create an account through `POST /api/signup`. Off: the sign-up call answers 404. */
    PATCHWELL_SIGNUP: flag('PATCHWELL_SIGNUP', true),
    /**
     * `0` (default) or `1`: outgoing webhooks may target http or https on 127.0.0.1, ::1 and
     * localhost, and only those (tests and local development). Off, a webhook needs an https
     * URL whose host resolves to public addresses only (docs/api/webhooks.md).
     */
    WEBHOOKS_ALLOW_LOOPBACK: flag('WEBHOOKS_ALLOW_LOOPBACK', false),
    /**
     * DNS servers that domain verification asks for TXT records, comma-separated, each an IP
     * address with an optional port (`1.1.1.1,9.9.9.9`, `127.0.0.1:5353`, `[::1]:53`).
     * Unset: the system's resolvers (/etc/resolv.conf).
     */
    DNS_SERVERS: z
      .string()
      .optional()
      .transform((v, c) => {
        if (v === undefined) return undefined;
        const servers = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = servers.filter((s) => !isDnsServer(s));
        if (bad.length || !servers.length) {
          c.addIssue({
            code: 'custom',
            message: `DNS_SERVERS: not an IP address with an optional port: ${bad.join(', ')}.`,
          });
          return z.NEVER;
        }
        return servers;
      }),
    /** How long one DNS query of domain verification may take, in milliseconds: 100 to 30000, default `5000`. */
    DNS_TIMEOUT_MS: z.coerce
      .number({ error: 'DNS_TIMEOUT_MS must be a whole number of milliseconds between 100 and 30000.' })
      .int('DNS_TIMEOUT_MS must be a whole number of milliseconds between 100 and 30000.')
      .min(100, 'DNS_TIMEOUT_MS must be a whole number of milliseconds between 100 and 30000.')
      .max(30_000, 'DNS_TIMEOUT_MS must be a whole number of milliseconds between 100 and 30000.')
      .default(5000),
    /** Largest accepted request body in bytes. Default `1048576` (1 MiB); larger bodies get 413. */
    BODY_LIMIT_BYTES: z.coerce
      .number({ error: 'BODY_LIMIT_BYTES must be a whole number of bytes (at least 1024).' })
      .int('BODY_LIMIT_BYTES must be a whole number of bytes (at least 1024).')
      .min(1024, 'BODY_LIMIT_BYTES must be a whole number of bytes (at least 1024).')
      .default(1024 * 1024),
    /**
     * Largest installer a required-software policy may upload, in bytes: 1 to 536870912
     * (512 MiB, the default and the most the policies' schema accepts). Larger uploads get 413.
     */
    INSTALLER_MAX_BYTES: z.coerce
      .number({ error: `INSTALLER_MAX_BYTES must be a whole number of bytes between 1 and ${INSTALLER_MAX_BYTES}.` })
      .int(`INSTALLER_MAX_BYTES must be a whole number of bytes between 1 and ${INSTALLER_MAX_BYTES}.`)
      .min(1, `INSTALLER_MAX_BYTES must be a whole number of bytes between 1 and ${INSTALLER_MAX_BYTES}.`)
      .max(
        INSTALLER_MAX_BYTES,
        `INSTALLER_MAX_BYTES must be a whole number of bytes between 1 and ${INSTALLER_MAX_BYTES}.`,
      )
      .default(INSTALLER_MAX_BYTES),
    /**
     * Milliseconds a connection may take to send a request's headers before it gets 408 and is
     * closed: 1000 to 300000, default `10000`. Keeps slow-header clients (slowloris) from holding
     * connections; a slow body (a large installer upload) is not limited by it.
     */
    HEADERS_TIMEOUT_MS: z.coerce
      .number({ error: 'HEADERS_TIMEOUT_MS must be a whole number of milliseconds between 1000 and 300000.' })
      .int('HEADERS_TIMEOUT_MS must be a whole number of milliseconds between 1000 and 300000.')
      .min(1000, 'HEADERS_TIMEOUT_MS must be a whole number of milliseconds between 1000 and 300000.')
      .max(300_000, 'HEADERS_TIMEOUT_MS must be a whole number of milliseconds between 1000 and 300000.')
      .default(10_000),
    /**
     * A secret that lets Prometheus read `/metrics` from another machine, sent as
     * `Authorization: Bearer <token>`: 16 to 256 visible ASCII characters (`openssl rand -hex 32`).
     * Unset: `/metrics` answers only requests from this machine (loopback) that no proxy
     * forwarded; everyone else gets 403.
     */
    METRICS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{16,256}$/, 'METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces).')
      .optional(),
    /**
     * Whether to believe `X-Forwarded-For` / `X-Forwarded-Proto` from a reverse proxy, which
     * decides the client address used by sign-in and sign-up rate limits. Default off (`0`). `1` trusts
     * every proxy; a number trusts that many hops; otherwise a comma-separated list of
     * proxy addresses or CIDR ranges (`10.0.0.0/8,127.0.0.1`).
     */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((v): boolean | number | string[] => {
        const value = (v ?? '').trim().toLowerCase();
        if (['', '0', 'false', 'off', 'no'].includes(value)) return false;
        if (['1', 'true', 'on', 'yes'].includes(value)) return true;
        if (/^\d+$/.test(value)) return Number(value);
        return value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      }),
    /**
     * Milliseconds between SIGTERM and closing the listener. `/readyz` answers 503 at once
     * while requests are still served, so load balancers notice and stop sending traffic
     * before the port closes; then requests in flight finish and the database closes.
     * Default `2000` when `NODE_ENV` is `production` (the default), otherwise `0`.
     */
    /**
     * How often this node's policy scheduler looks for due schedules, in milliseconds: 0 to
     * 3600000, default `15000`. `0` turns it off on this node (one that only serves requests);
     * any number of nodes may run it, each due run is still created once.
     */
    POLICY_SCHEDULER_INTERVAL_MS: z.coerce
      .number({ error: 'POLICY_SCHEDULER_INTERVAL_MS must be a whole number of milliseconds between 0 and 3600000.' })
      .int('POLICY_SCHEDULER_INTERVAL_MS must be a whole number of milliseconds between 0 and 3600000.')
      .min(0, 'POLICY_SCHEDULER_INTERVAL_MS must be a whole number of milliseconds between 0 and 3600000.')
      .max(3_600_000, 'POLICY_SCHEDULER_INTERVAL_MS must be a whole number of milliseconds between 0 and 3600000.')
      .default(15_000),
    SHUTDOWN_DRAIN_MS: z.coerce
      .number({ error: 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 300000.' })
      .int('SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 300000.')
      .min(0, 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 300000.')
      .max(300_000, 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 300000.')
      .optional(),
    /**
     * SMTP relay for outgoing mail (invitations), as a URL: `smtp://user:password@host:587`
     * (STARTTLS when the relay offers it) or `smtps://user:password@host:465` (TLS from the
     * start). Unset: no mail leaves the server; each message waits in the outbox, a log line
     * says so (without the message), and global administrators read it at
     * `GET /api/accounts/{accountId}/outbox`. Never logged, since it may hold a password.
     */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^/?#]+/, 'SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:password@host:587.')
      .optional(),
    /**
     * Sender of outgoing mail, an address or `Name <address>`. Default
     * `Patchwell <no-reply@HOST>`, where HOST is that of `PATCHWELL_PUBLIC_URL` (else `localhost`).
     */
    MAIL_FROM: z.string().trim().min(3, 'MAIL_FROM must be an e-mail address or Name <address>.').optional(),
    /**
     * The server's secret key: 32 random bytes, written as 64 hex digits or in base64
     * (`openssl rand -base64 32`). It encrypts secrets the server must read back, such as the
     * zones' agent access keys (AES-256-GCM). Unset: a key is generated on first use into
     * `DATA_DIR/secret.key` (mode 0600), or kept in memory with `DATA_DIR=memory://`. Set it
     * when several nodes share one database, so every node reads the same secrets.
     */
    PATCHWELL_SECRET_KEY: z
      .string()
      .trim()
      .transform((v, ctx) => {
        const key = parseSecretKey(v);
        if (!key) {
          ctx.addIssue({
            code: 'custom',
            message: 'PATCHWELL_SECRET_KEY must be 32 bytes written as 64 hex digits or in base64.',
          });
          return z.NEVER;
        }
        return key;
      })
      .optional(),
    /** `development` makes logs readable (pino-pretty, unless LOG_FORMAT=json); also reported to the console as its environment. Default `production`. */
    NODE_ENV: z.string().default('production'),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.PATCHWELL_ADMIN_EMAIL) !== Boolean(env.PATCHWELL_ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.PATCHWELL_ADMIN_EMAIL ? 'PATCHWELL_ADMIN_PASSWORD' : 'PATCHWELL_ADMIN_EMAIL'],
        message: 'PATCHWELL_ADMIN_EMAIL and PATCHWELL_ADMIN_PASSWORD must be set together.',
      });
    }
  });

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files, or `memory://`. */
  pgliteDataDir: string;
  /** The thread PGlite runs in: its own (`worker`) or the server's (`main`). */
  pgliteThread: 'worker' | 'main';
  /** DATA_DIR resolved to an absolute path, or `memory://`. */
  dataDir: string;
  /** PATCHWELL_SECRET_KEY (32 bytes); unset: a key file in `dataDir` (see modules/zones/secret-key.ts). */
  secretKey: Buffer | undefined;
  /** Origin people reach us at (no trailing slash), when configured. */
  publicUrl: string | undefined;
  /** True when `publicUrl` is https: Secure cookies, `__Host-` prefix, HSTS. */
  isHttps: boolean;
  /** PATCHWELL_NODE_URL: where the other nodes reach this one (remote sessions' forwarding). */
  nodeUrl: string | undefined;
  admin: { email: string; password: string } | undefined;
  demo: boolean;
  /** Simulated devices of the demo account (PATCHWELL_DEMO_DEVICES); 0 when the demo is off. */
  demoDevices: number;
  /** PATCHWELL_DEMO_SPEED: how many times faster than real ones the simulated devices' commands finish. */
  demoSpeed: number;
  logLevel: string;
  /** Unset: chosen at start (see LOG_FORMAT). */
  logFormat: 'json' | 'pretty' | undefined;
  helpBaseUrl: string;
  supportUrl: string;
  signupEnabled: boolean;
  /** WEBHOOKS_ALLOW_LOOPBACK: webhooks target loopback only (tests, development) instead of public https. */
  webhooksAllowLoopback: boolean;
  /** DNS_SERVERS: resolvers for domain verification; undefined = the system's. */
  dnsServers: string[] | undefined;
  /** DNS_TIMEOUT_MS: one DNS query's timeout. */
  dnsTimeoutMs: number;
  /** BILLING_RATES: the price list in force (core's default when unset). */
  billingRates: RateTable;
  /** PATCHWELL_FLAGS: feature flag defaults over core's, before account and zone overrides. */
  flagDefaults: Partial<Record<FeatureFlag, boolean>>;
  bodyLimitBytes: number;
  /** Largest uploaded installer (INSTALLER_MAX_BYTES); stored under `dataDir/installers`. */
  installerMaxBytes: number;
  trustProxy: boolean | number | string[];
  /** HEADERS_TIMEOUT_MS: how long a connection may take to send its headers before 408. */
  headersTimeoutMs: number;
  /** METRICS_TOKEN (a secret: never log it); unset: /metrics answers loopback only. */
  metricsToken: string | undefined;
  environment: string;
  /** SMTP relay URL (may hold a password: never log it); undefined keeps mail in the outbox. */
  smtpUrl: string | undefined;
  /** Sender of outgoing mail. */
  mailFrom: string;
  /** Wait between SIGTERM and closing the listener, so load balancers see /readyz fail first. */
  shutdownDrainMs: number;
  /** Policy scheduler tick (POLICY_SCHEDULER_INTERVAL_MS); 0 = off on this node. */
  policySchedulerIntervalMs: number;
  /** The built console (`packages/web/dist`); not an environment variable, tests point it elsewhere. */
  webDistDir: string;
  /** The console's page renderer built for Node (`packages/web/dist-ssr`, decision 0030); tests point it elsewhere. */
  webSsrDir: string;
};

/** Thrown by {@link loadConfig} with one readable line per invalid variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the configuration from `env` (default `process.env`). Empty strings
 * count as unset, so `FOO=` in a compose file falls back to the default.
 * @throws ConfigError listing every invalid variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? 'environment');
      return i.message.startsWith(name) ? i.message : `${name}: ${i.message}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const dataDir = e.DATA_DIR;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    pgliteDataDir: dataDir === 'memory://' ? 'memory://' : path.resolve(dataDir, 'pglite'),
    pgliteThread: e.PGLITE_THREAD,
    dataDir: dataDir === 'memory://' ? 'memory://' : path.resolve(dataDir),
    secretKey: e.PATCHWELL_SECRET_KEY,
    publicUrl: e.PATCHWELL_PUBLIC_URL ? new URL(e.PATCHWELL_PUBLIC_URL).origin : undefined,
    isHttps: e.PATCHWELL_PUBLIC_URL?.startsWith('https://') ?? false,
    nodeUrl: e.PATCHWELL_NODE_URL,
    admin:
      e.PATCHWELL_ADMIN_EMAIL && e.PATCHWELL_ADMIN_PASSWORD
        ? { email: e.PATCHWELL_ADMIN_EMAIL, password: e.PATCHWELL_ADMIN_PASSWORD }
        : undefined,
    demo: e.PATCHWELL_DEMO,
    demoDevices: e.PATCHWELL_DEMO ? e.PATCHWELL_DEMO_DEVICES : 0,
    demoSpeed: e.PATCHWELL_DEMO_SPEED,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    helpBaseUrl: e.PATCHWELL_HELP_BASE_URL,
    supportUrl: e.PATCHWELL_SUPPORT_URL ?? `${e.PATCHWELL_HELP_BASE_URL}/support`,
    signupEnabled: e.PATCHWELL_SIGNUP,
    webhooksAllowLoopback: e.WEBHOOKS_ALLOW_LOOPBACK,
    dnsServers: e.DNS_SERVERS,
    dnsTimeoutMs: e.DNS_TIMEOUT_MS,
    flagDefaults: e.PATCHWELL_FLAGS,
    billingRates: e.BILLING_RATES,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    installerMaxBytes: e.INSTALLER_MAX_BYTES,
    trustProxy: e.TRUST_PROXY,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
    environment: e.NODE_ENV,
    smtpUrl: e.SMTP_URL,
    mailFrom:
      e.MAIL_FROM ??
      `Patchwell <no-reply@${e.PATCHWELL_PUBLIC_URL ? new URL(e.PATCHWELL_PUBLIC_URL).hostname : 'localhost'}>`,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS ?? (e.NODE_ENV === 'production' ? 2000 : 0),
    policySchedulerIntervalMs: e.POLICY_SCHEDULER_INTERVAL_MS,
    webDistDir: path.resolve(PACKAGE_ROOT, '../web/dist'),
    webSsrDir: path.resolve(PACKAGE_ROOT, '../web/dist-ssr'),
  };
}
