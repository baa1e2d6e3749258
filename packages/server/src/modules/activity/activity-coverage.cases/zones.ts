import { randomBytes } from 'node:crypto';
import { o, accountId, ids, admin, q, inZone, atAccount, type Case } from './context';

/** Zones: create, rename, enable and disable, keys, session settings. */
export const zoneCases: Record<string, Case> = {
  'POST /api/orgs': {
    run: async () => {
      const res = await admin().post(q('/api/orgs'), { name: `Second ${randomBytes(3).toString('hex')}` });
      ids.zone2 = res.body?.id;
      return res;
    },
    action: 'zone.create',
    zone: () => ids.zone2!,
  },
  'POST /api/orgs/self/prefs': {
    run: () => admin().post(q('/api/orgs/self/prefs'), { prefs: [{ pref_name: 'theme', value: 'dark' }] }),
    action: 'zone.prefs',
    zone: inZone,
  },
  'PUT /api/orgs/{id}': {
    run: () => admin().put(q(`/api/orgs/${o}`), { name: 'Renamed zone' }),
    action: 'zone.update',
    zone: inZone,
  },
  'POST /api/orgs/{id}/disable': {
    run: () => admin().post(q(`/api/orgs/${ids.zone2}/disable`)),
    action: 'zone.disable',
    zone: () => ids.zone2!,
  },
  'POST /api/orgs/{id}/enable': {
    run: () => admin().post(q(`/api/orgs/${ids.zone2}/enable`)),
    action: 'zone.enable',
    zone: () => ids.zone2!,
  },
  'POST /api/orgs/{id}/access-key/rotate': {
    run: () => admin().post(q(`/api/orgs/${ids.zone2}/access-key/rotate`)),
    action: 'zone.access_key_rotate',
    zone: () => ids.zone2!,
  },
  'PUT /api/orgs/{id}/session-settings': {
    run: () =>
      admin().put(q(`/api/orgs/${o}/session-settings`), { max_lifetime_minutes: 600, idle_timeout_minutes: 60 }),
    action: 'zone.session_settings',
    zone: inZone,
  },
  'POST /api/accounts/{accountId}/zones': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/zones`, { name: 'Third zone' });
      ids.zone3 = res.body?.id;
      return res;
    },
    action: 'zone.create',
    zone: () => ids.zone3!,
  },
  'PUT /api/accounts/{accountId}/zones/{zoneId}': {
    run: () => admin().put(`/api/accounts/${accountId}/zones/${ids.zone3}`, { name: 'Third zone renamed' }),
    action: 'zone.update',
    zone: () => ids.zone3!,
  },
  'PUT /api/accounts/{accountId}/session-settings': {
    run: () =>
      admin().put(`/api/accounts/${accountId}/session-settings`, {
        max_lifetime_minutes: 720,
        idle_timeout_minutes: 30,
      }),
    action: 'account.session_settings',
    zone: atAccount,
  },
};

/** Feature flags and plans, set by the account. */
export const zoneFlagCases: Record<string, Case> = {
  'PUT /api/accounts/{accountId}/flags': {
    run: () => admin().put(`/api/accounts/${accountId}/flags`, { policy_results_page: true }),
    action: 'account.flags',
    zone: atAccount,
  },
  'PUT /api/accounts/{accountId}/zones/{zoneId}/flags': {
    run: () => admin().put(`/api/accounts/${accountId}/zones/${o}/flags`, { policy_results_page: false }),
    action: 'zone.flags',
    zone: inZone,
  },
  'PUT /api/accounts/{accountId}/zones/{zoneId}/plan': {
    run: () => admin().put(`/api/accounts/${accountId}/zones/${ids.zone3}/plan`, { plan: 'manage' }),
    action: 'zone.plan',
    zone: () => ids.zone3!,
  },
};
