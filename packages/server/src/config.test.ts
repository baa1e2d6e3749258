import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { RATES } from '@patchwell/core/billing/pricing';

describe('loadConfig', () => {
  it('defaults to 127.0.0.1:8080, PGlite in ./data, demo and sign-up on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      pgliteDataDir: path.resolve('data', 'pglite'),
      publicUrl: undefined,
      isHttps: false,
      admin: undefined,
      demo: true,
      logLevel: 'info',
      helpBaseUrl: 'https://docs.patchwell.dev',
      supportUrl: 'https://docs.patchwell.dev/support',
      signupEnabled: true,
      bodyLimitBytes: 1024 * 1024,
      trustProxy: false,
      shutdownDrainMs: 2000,
    });
    expect(config.webDistDir).toMatch(/packages[/\\]web[/\\]dist$/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/patchwell',
      DATA_DIR: 'memory://',
      PATCHWELL_PUBLIC_URL: 'https://patch.example.com/',
      PATCHWELL_ADMIN_EMAIL: 'Admin@Example.com',
      PATCHWELL_ADMIN_PASSWORD: 'a-long-admin-password',
      PATCHWELL_DEMO: '0',
      PATCHWELL_DEMO_DEVICES: '12',
      LOG_LEVEL: 'debug',
      PATCHWELL_HELP_BASE_URL: 'https://help.example.com/',
      PATCHWELL_SUPPORT_URL: 'https://support.example.com',
      PATCHWELL_SIGNUP: 'off',
      BODY_LIMIT_BYTES: '2048',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      SHUTDOWN_DRAIN_MS: '5000',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/patchwell',
      pgliteDataDir: 'memory://',
      publicUrl: 'https://patch.example.com',
      isHttps: true,
      admin: { email: 'admin@example.com', password: 'a-long-admin-password' },
      demo: false,
      demoDevices: 0,
      logLevel: 'debug',
      helpBaseUrl: 'https://help.example.com',
      supportUrl: 'https://support.example.com',
      signupEnabled: false,
      bodyLimitBytes: 2048,
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      shutdownDrainMs: 5000,
    });
  });

  it('drains for 2 s on shutdown in production and not at all in development, unless told', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'development', SHUTDOWN_DRAIN_MS: '1500' }).shutdownDrainMs).toBe(1500);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '2.5' })).toThrow(/SHUTDOWN_DRAIN_MS must be a whole number/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS must be a whole number/);
  });

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['2', 2],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('reads the DNS servers of domain verification, and refuses what is not an address', () => {
    expect(loadConfig({}).dnsServers).toBeUndefined();
    expect(loadConfig({ DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,::1' }).dnsServers).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '[::1]:53',
      '::1',
    ]);
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS: not an IP address/);
    expect(() => loadConfig({ DNS_SERVERS: '1.1.1.1:99999' })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ DNS_TIMEOUT_MS: '50' })).toThrow(/DNS_TIMEOUT_MS must be/);
  });

  it('reads the price list, and refuses one that is not JSON or misses a rate', () => {
    expect(loadConfig({}).billingRates).toEqual(RATES);
    const prices = { monthly: { ...RATES.monthly, patch: 999 }, yearly: RATES.yearly };
    expect(loadConfig({ BILLING_RATES: JSON.stringify(prices) }).billingRates).toEqual(prices);
    expect(() => loadConfig({ BILLING_RATES: '{monthly' })).toThrow(/BILLING_RATES must be JSON/);
    const missing = { monthly: { patch: 1, manage: 2 }, yearly: RATES.yearly };
    expect(() => loadConfig({ BILLING_RATES: JSON.stringify(missing) })).toThrow(
      /BILLING_RATES: monthly\.full_annual_base_rate/,
    );
    const negative = { ...prices, yearly: { ...RATES.yearly, manage: -5 } };
    expect(() => loadConfig({ BILLING_RATES: JSON.stringify(negative) })).toThrow(/BILLING_RATES: yearly\.manage/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', PATCHWELL_DEMO: '' })).toMatchObject({ port: 8080, demo: true, demoDevices: 32 });
    expect(loadConfig({ PATCHWELL_DEMO_DEVICES: '0' })).toMatchObject({ demo: true, demoDevices: 0 });
    expect(loadConfig({ PATCHWELL_DEMO_DEVICES: '5' })).toMatchObject({ demoDevices: 5 });
    expect(loadConfig({ PATCHWELL_DEMO_SPEED: '' })).toMatchObject({ demoSpeed: 1 });
    expect(loadConfig({ PATCHWELL_DEMO_SPEED: '20' })).toMatchObject({ demoSpeed: 20 });
  });

  it('refuses a demo speed that is not a whole number from 1 to 100', () => {
    for (const speed of ['0', '101', '2.5', 'fast']) {
      expect(() => loadConfig({ PATCHWELL_DEMO_SPEED: speed })).toThrow(
        /PATCHWELL_DEMO_SPEED must be a whole number between 1 and 100\./,
      );
    }
  });

  it('lists every invalid variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PATCHWELL_PUBLIC_URL: 'patch.example.com',
        PATCHWELL_DEMO: 'maybe',
        LOG_LEVEL: 'loud',
        BODY_LIMIT_BYTES: '10',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(/[: ]/)[0])).toEqual([
      'PORT',
      'DATABASE_URL',
      'PATCHWELL_PUBLIC_URL',
      'PATCHWELL_DEMO',
      'LOG_LEVEL',
      'BODY_LIMIT_BYTES',
    ]);
    expect((error as Error).message).toContain('PORT must be a number between 0 and 65535.');
  });

  it('requires the administrator e-mail and password together, and a valid password', () => {
    expect(() => loadConfig({ PATCHWELL_ADMIN_EMAIL: 'a@b.test' })).toThrow(/must be set together/);
    expect(() => loadConfig({ PATCHWELL_ADMIN_PASSWORD: 'a-long-admin-password' })).toThrow(/must be set together/);
    expect(() => loadConfig({ PATCHWELL_ADMIN_EMAIL: 'a@b.test', PATCHWELL_ADMIN_PASSWORD: 'short' })).toThrow(
      /PATCHWELL_ADMIN_PASSWORD: Value must be at least 12 characters/,
    );
  });
});
