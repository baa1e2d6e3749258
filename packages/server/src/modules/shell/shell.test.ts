import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBannerList } from '@patchwell/core/shell/banner.schema';
import { ZClientConfig } from '@patchwell/core/shell/config.schema';
import { ONE_HOUR_MS } from '@patchwell/core/constants';
import { banners } from '../../db/schema';
import { buildAccountWithUser } from '../../test/factories';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: { PATCHWELL_HELP_BASE_URL: 'https://help.example.test/', PATCHWELL_PUBLIC_URL: 'https://patch.example.test' },
  });
});
afterAll(() => t.close());

describe('GET /api/banners', () => {
  it('needs a session', async () => {
    const res = await t.request('/api/banners');
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).code).toBe('auth.unauthenticated');
  });

  it('lists only the banners active now', async () => {
    const now = t.clock.now().getTime();
    const at = (hours: number) => new Date(now + hours * ONE_HOUR_MS);
    await t.db.insert(banners).values([
      { message: 'Running', messagetype: 'info', startsAt: at(-2), endsAt: null },
      { message: 'Ending later', messagetype: 'maintenance', startsAt: at(-1), endsAt: at(1) },
      { message: 'Over', messagetype: 'danger', startsAt: at(-3), endsAt: at(-1) },
      { message: 'Not yet', messagetype: 'warning', startsAt: at(1), endsAt: null },
    ]);
    const { user } = await buildAccountWithUser(t.db);
    const list = async () => {
      const { cookie } = await t.signIn(user.email, user.password);
      // The app's public URL is https, so the cookie has the __Host- name.
      expect(cookie).toMatch(/^__Host-pw_session=/);
      return ZBannerList.parse(await bodyOf(await t.request('/api/banners', { headers: { cookie } })));
    };
    expect((await list()).map((b) => b.message)).toEqual(['Running', 'Ending later']);
    t.clock.advance(ONE_HOUR_MS);
    // "Ending later" has ended; "Not yet" has started.
    expect((await list()).map((b) => [b.message, b.messagetype])).toEqual([
      ['Running', 'info'],
      ['Not yet', 'warning'],
    ]);
  });
});

describe('GET /api/shared/js/config', () => {
  it('is public and describes countries, help links, session defaults and sign-up', async () => {
    const res = await t.request('/api/shared/js/config?json=true');
    expect(res.status).toBe(200);
    const config = ZClientConfig.parse(await bodyOf(res));
    expect(config.countries).toHaveLength(249);
    expect(config.countries).toContainEqual({ name: 'Germany', code: 'DE' });
    expect(config.help_links).toEqual([
      { label: 'Knowledge Base', url: 'https://help.example.test/kb' },
      { label: 'Release Notes', url: 'https://help.example.test/release-notes' },
      { label: 'Community', url: 'https://help.example.test/community' },
      { label: 'API Reference Guide', url: 'https://patch.example.test/api/docs' },
      { label: 'University', url: 'https://help.example.test/university' },
    ]);
    expect(config.support_url).toBe('https://help.example.test/support');
    expect(config.docs_url).toBe('https://help.example.test');
    expect(config.session).toEqual({ idle_timeout_minutes: 30, max_lifetime_minutes: 720 });
    expect(config.signup_enabled).toBe(true);
    expect(config.password_reset_enabled).toBe(false);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
