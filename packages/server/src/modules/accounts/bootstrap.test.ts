import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import { ZProfile } from '@patchwell/core/auth/profile.schema';
import { loadConfig } from '../../config';
import type { AppContext } from '../../context';
import type { DbHandle } from '../../db/client';
import { accounts, banners } from '../../db/schema';
import { createLogger } from '../../logger';
import { createTestClock, type TestClock } from '../../test/clock';
import { createTestDb } from '../../test/db';
import { bodyOf, startTestApp } from '../../test/app';
import { BootstrapError, bootstrap } from './bootstrap';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD, DEMO_WELCOME_BANNER } from './demo.seed';

const ADMIN = { PATCHWELL_ADMIN_EMAIL: 'Root@Example.TEST', PATCHWELL_ADMIN_PASSWORD: 'first-admin-passphrase' };

/** Runs `fn` with a fresh empty database and a context built from `env`. */
async function withEmptyDb(env: NodeJS.ProcessEnv, fn: (ctx: AppContext & { clock: TestClock }) => Promise<void>) {
  const handle = await createTestDb();
  try {
    const config = loadConfig({ DATA_DIR: 'memory://', ...env });
    await fn({ config, db: handle.db, clock: createTestClock(), logger: createLogger('silent') });
  } finally {
    await handle.close();
  }
}

/** The test's database, lent to an app that must not close it. */
const borrowed = (ctx: AppContext): DbHandle => ({ db: ctx.db, kind: 'pglite', close: async () => undefined });

describe('start-up bootstrap', () => {
  it('creates the first administrator from PATCHWELL_ADMIN_* on an empty database, and only once', async () => {
    await withEmptyDb({ ...ADMIN, PATCHWELL_DEMO: '1' }, async (ctx) => {
      expect(await bootstrap(ctx)).toEqual({ created: 'admin', demoSignIn: null });
      expect(await bootstrap(ctx)).toEqual({ created: null, demoSignIn: null });
      expect(await ctx.db.select().from(accounts)).toHaveLength(1);

      const t = await startTestApp({ db: borrowed(ctx) });
      try {
        const { res } = await t.signIn('root@example.test', ADMIN.PATCHWELL_ADMIN_PASSWORD);
        expect(res.status).toBe(200);
        const profile = ZProfile.parse(await bodyOf(res));
        expect(profile.is_global_admin).toBe(true);
        expect(profile.orgs.map((o) => o.name)).toEqual(['Default Zone']);
        expect(profile.account_name).toBe('example.test');
      } finally {
        await t.close();
      }
    });
  });

  it('leaves a database that already has an account alone', async () => {
    await withEmptyDb({ PATCHWELL_DEMO: '1' }, async (ctx) => {
      await ctx.db.insert(accounts).values({ name: 'Existing', createdAt: new Date() });
      const withAdmin = { ...ctx, config: loadConfig({ DATA_DIR: 'memory://', ...ADMIN }) };
      expect(await bootstrap(withAdmin)).toEqual({ created: null, demoSignIn: null });
      expect(await ctx.db.select().from(accounts)).toHaveLength(1);
    });
  });

  it('refuses a common administrator password', async () => {
    await withEmptyDb({ PATCHWELL_ADMIN_EMAIL: 'a@b.test', PATCHWELL_ADMIN_PASSWORD: '1q2w3e4r5t6y' }, async (ctx) => {
      await expect(bootstrap(ctx)).rejects.toThrow(BootstrapError);
      await expect(bootstrap(ctx)).rejects.toThrow(COMMON_PASSWORD_MESSAGE);
    });
  });

  it('seeds the demo on an empty database and reports its sign-in on every start', async () => {
    await withEmptyDb({}, async (ctx) => {
      const signIn = { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD };
      expect(await bootstrap(ctx)).toEqual({ created: 'demo', demoSignIn: signIn });
      expect(await bootstrap(ctx)).toEqual({ created: null, demoSignIn: signIn });

      const t = await startTestApp({ db: borrowed(ctx), clock: ctx.clock });
      try {
        const { res, cookie } = await t.signIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
        const admin = ZProfile.parse(await bodyOf(res));
        expect(admin.is_global_admin).toBe(true);
        expect(admin.features).toMatchObject({ clone_policy: true, global_devices_table: true, remote_control: false });
        expect(admin.orgs.map((o) => o.name)).toEqual(['Cloud Servers', 'Headquarters', 'Retail Stores']);
        const trial = admin.orgs.find((o) => o.trial_end_time !== null)!;
        expect(trial.trial_expired).toBe(false);
        expect(admin.orgs.find((o) => o.name === 'Retail Stores')!.parent_id).toBe(
          admin.orgs.find((o) => o.name === 'Headquarters')!.id,
        );

        const shown = await bodyOf(await t.request('/api/banners', { headers: { cookie } }));
        expect(shown).toEqual([{ id: expect.any(Number), message: DEMO_WELCOME_BANNER, messagetype: 'info' }]);

        const readonly = ZProfile.parse(await (await t.signIn('readonly@patchwell.local', DEMO_PASSWORD)).res.json());
        expect(readonly.is_global_admin).toBe(false);
        expect(new Set(readonly.rbac_roles.map((r) => r.name))).toEqual(new Set(['Read Only']));
        const operator = ZProfile.parse(await (await t.signIn('operator@patchwell.local', DEMO_PASSWORD)).res.json());
        expect(operator.rbac_roles.map((r) => r.name).sort()).toEqual(['Patch Operator', 'Zone Operator']);
      } finally {
        await t.close();
      }
    });
  });

  it('creates nothing with PATCHWELL_DEMO=0 and no administrator', async () => {
    await withEmptyDb({ PATCHWELL_DEMO: '0' }, async (ctx) => {
      expect(await bootstrap(ctx)).toEqual({ created: null, demoSignIn: null });
      expect(await ctx.db.select().from(accounts)).toEqual([]);
      expect(await ctx.db.select().from(banners)).toEqual([]);
    });
  });
});
