import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedRoute } from '../http/access';
import { apiKeys } from '../db/schema';
import { startTestApp, type TestApp } from './app';
import { call, clientFor, cookieFor, inTurns, type Answer, type Caller } from './authz-helpers';
import { buildAccount, buildUser, buildZone, TEST_PASSWORD } from './factories';

/**
 * The route matrix: every `session` route the server registers (read from the app, so
 * routes added later are covered without touching this file) called as every role, with
 * `o`, path ids and body ids pointing at objects of ANOTHER account (and, for users who do
 * not belong to it, of another zone of their own account). Each such call must be refused
 * with 401, 403 or 404: a 2xx, or any answer that contains the other side's data, is a
 * leak; a 500 is a failure. Each route is also called in the caller's own zone, where it
 * must never answer 500 (in particular not `authz.missing`: a route without a decision).
 *
 * Bodies and required query parameters are sampled from each route's own zod schema, so
 * the handler runs and authorization, not validation, is what refuses.
 */

/**
 * Routes whose answer is about the caller alone, whatever `o` says: they answer 2xx to
 * anyone signed in and are only checked for the other side's data. A new route belongs
 * here only if it never reads or writes zone or account data.
 */
const SELF_SCOPED = new Set([
  'GET /api/users/is-authenticated',
  'GET /api/users/self',
  'GET /api/banners',
  'GET /api/orgs', // the zones the caller may enter
  'GET /api/users/self/api_keys',
  'GET /api/users/self/prefs',
  'POST /api/users/self/prefs',
  // The caller's own second factor (modules/mfa/self.service.ts): `o` only picks the zone whose flags apply.
  'GET /api/users/self/tfa',
  'POST /api/users/self/tfa/setup',
  'GET /api/users/self/tfa/setup',
  'POST /api/users/self/tfa/confirm',
  'POST /api/users/self/tfa/send-code',
  'POST /api/users/self/tfa/disable',
  'POST /api/users/self/tfa/recovery-codes',
]);

/**
 * Routes whose path id names an object every zone shares, not one a zone owns: the shipped
 * worklet catalogue (entries by slug, UUID or number). In the caller's own zone any id of
 * theirs is readable, so only the foreign-zone `o` probe applies.
 */
const SHARED_OBJECT_ROUTES = new Set(['GET /api/worklet-catalog/:id']);

import { buildWorld, tag, type Ids, type Kind, type World } from './authz-worlds';

const PARAM_KINDS: Record<string, Kind> = {
  accountId: 'account',
  zoneId: 'zone',
  orgId: 'zone',
  userId: 'user',
  taskId: 'task',
  cve: 'cve',
  exceptionId: 'cveException',
  policyUuid: 'policyUuid',
  extractId: 'extract',
  scheduleId: 'schedule',
  webhookId: 'webhook',
  deliveryId: 'delivery',
  batchId: 'batch',
  connectionId: 'connection',
  domainId: 'domain',
};
/** Path parameters that name no object but a fixed value of an enum (`/tasks/{type}/batches`). */
const FIXED_PARAMS: Record<string, string> = { type: 'patch' };
const SEGMENT_KINDS: Record<string, Kind> = {
  accounts: 'account',
  orgs: 'zone',
  zones: 'zone',
  users: 'user',
  api_keys: 'key',
  invitations: 'invitation',
  outbox: 'outbox',
  policies: 'policy',
};
const FIELD_KINDS: Record<string, Kind> = {
  zone_id: 'zone',
  parent_id: 'zone',
  organization_id: 'zone',
  user_id: 'user',
  userid: 'user',
  account_id: 'account',
  invitation_id: 'invitation',
  batch_id: 'batch',
};
const ALL_KINDS: Kind[] = ['zone', 'user', 'key', 'invitation', 'outbox'];

/** The kinds of object a path parameter may name: by its name, else by the segment before it, else any. */
function kindsOf(url: string, param: string): Kind[] {
  if (PARAM_KINDS[param]) return [PARAM_KINDS[param]];
  const segments = url.split('/');
  const before = segments[segments.indexOf(`:${param}`) - 1] ?? '';
  return SEGMENT_KINDS[before] ? [SEGMENT_KINDS[before]] : ALL_KINDS;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  format?: string;
};

let sampleCounter = 0;

/** A plausible valid value for `schema`, with ids of `ids` in id-like fields. */
function sample(schema: JsonSchema, field: string, ids: Ids): unknown {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sample(options.find((o) => o.type !== 'null') ?? options[0]!, field, ids);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        // Optional password fields start a password change; leave them out unless required.
        if (!required.has(name) && /password/i.test(name)) continue;
        out[name] = sample(prop, name, ids);
      }
      return out;
    }
    case 'array':
      return schema.items && ((schema.minItems ?? 0) > 0 || ['zones', 'prefs', 'tags', 'recipients'].includes(field))
        ? [sample(schema.items, field, ids)]
        : [];
    case 'integer':
    case 'number': {
      if (FIELD_KINDS[field]) return ids[FIELD_KINDS[field]];
      if (field === 'role_id') return 1;
      if (schema.minimum !== undefined) return schema.minimum;
      if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + 1;
      return 1;
    }
    case 'boolean':
      return false;
    case 'string': {
      sampleCounter += 1;
      if (/email/i.test(field) || schema.format === 'email') return `matrix-${sampleCounter}@example.test`;
      if (/password/i.test(field)) return TEST_PASSWORD;
      if (schema.format === 'date-time') return new Date('2026-03-02T09:00:00Z').toISOString();
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.test/';
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'hostname') return `matrix-${sampleCounter}.example`;
      if (field === 'schedule_time' || field === 'time') return '02:00';
      if (field === 'timezone') return 'Europe/Paris';
      // A one-off maintenance window: local times, the end after the start.
      if (field === 'starts_at') return '2026-03-10T22:00';
      if (field === 'ends_at') return '2026-03-11T02:00';
      if (field === 'recipients') return `matrix-${sampleCounter}@example.test`;
      // A report's range is a preset unless the body asks for a custom one.
      if (field === 'startDate' || field === 'endDate') return undefined;
      const text = `Matrix ${sampleCounter}`;
      return schema.maxLength !== undefined ? text.slice(0, schema.maxLength) : text;
    }
    default:
      return undefined;
  }
}

function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

type Request = { method: string; path: string; body: unknown; isSampleValid: boolean };

/** The request for `route` with zone `o`, path parameters `params` and body ids from `ids`. */
function requestFor(route: GuardedRoute, o: number, params: Record<string, number | string>, ids: Ids): Request {
  const path = route.url.replace(/:(\w+)/g, (_, name: string) => String(params[name]));
  const query = new URLSearchParams({ o: String(o) });
  let isSampleValid = true;
  const querySchema = route.schema?.querystring;
  const queryJson = jsonSchemaOf(querySchema);
  if (queryJson) {
    for (const name of queryJson.required ?? []) {
      query.set(name, String(sample(queryJson.properties?.[name] ?? {}, name, ids)));
    }
    if (querySchema instanceof z.ZodType) {
      isSampleValid &&= querySchema.safeParse(Object.fromEntries(query)).success;
    }
  }
  let body: unknown = undefined;
  const bodySchema = route.schema?.body;
  if (bodySchema instanceof z.ZodType) {
    body = sample(jsonSchemaOf(bodySchema)!, '', ids);
    isSampleValid &&= bodySchema.safeParse(body).success;
  } else if (['POST', 'PUT', 'PATCH'].includes(route.method)) {
    body = {};
  }
  return { method: route.method, path: `${path}?${query}`, body, isSampleValid };
}

/** Every assignment of the route's path parameters to objects of `world`. */
function paramSets(route: GuardedRoute, world: World): Record<string, number | string>[] {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  let sets: Record<string, number | string>[] = [{}];
  for (const name of names) {
    const fixed = FIXED_PARAMS[name];
    sets = sets.flatMap((set) =>
      fixed !== undefined
        ? [{ ...set, [name]: fixed }]
        : kindsOf(route.url, name).map((kind) => ({ ...set, [name]: world.ids[kind] })),
    );
  }
  return sets;
}

let t: TestApp;
let routes: GuardedRoute[];
let foreign: World;
let sibling: World;
let ownZoneId: number;
type Who = { name: string; caller: Caller; userId: number; isGlobalAdmin: boolean; siblingIsForeign: boolean };
const callers: Who[] = [];
/** Objects of the caller's own zone each caller may act on (a victim user, a key, …), per caller. */
const own = new Map<string, Ids>();

beforeAll(async () => {
  t = await startTestApp();
  routes = t.app.guardedRoutes.filter((r) => r.access === 'session' && r.method !== 'HEAD');

  // The other account: a Complete zone with a child, its own administrator and data.
  const otherName = `FOREIGNACCT-${tag()}`;
  const other = await buildAccount(t.db, { name: otherName });
  const otherZone = await buildZone(t.db, { accountId: other.id, name: `FOREIGNZONE-${tag()}` });
  const otherChild = await buildZone(t.db, {
    accountId: other.id,
    name: `FOREIGNCHILD-${tag()}`,
    parentId: otherZone.id,
  });
  await buildUser(t.db, { accountId: other.id, globalAdmin: true, zones: { [otherZone.id]: 1 } });
  foreign = await buildWorld(t, 'FOREIGN', other.id, otherName, otherZone.id, otherZone.uuid);
  foreign.markers.push(otherZone.name, otherChild.name, otherChild.uuid);

  // The callers' account: their zone, and a sibling zone they do not belong to.
  const account = await buildAccount(t.db);
  const zone = await buildZone(t.db, { accountId: account.id, name: 'Own zone' });
  const siblingZone = await buildZone(t.db, { accountId: account.id, name: `SIBLINGZONE-${tag()}` });
  ownZoneId = zone.id;
  sibling = await buildWorld(t, 'SIBLING', account.id, siblingZone.name, siblingZone.id, siblingZone.uuid);

  const roles: [string, number | 'global'][] = [
    ['Zone Administrator', 1],
    ['Read Only', 2],
    ['Billing Administrator', 3],
    ['Zone Operator', 4],
    ['Patch Operator', 5],
    ['Global Administrator', 'global'],
  ];
  for (const [name, roleId] of roles) {
    const isGlobalAdmin = roleId === 'global';
    const user = await buildUser(t.db, {
      accountId: account.id,
      globalAdmin: isGlobalAdmin,
      zones: isGlobalAdmin ? {} : { [zone.id]: roleId },
    });
    const session = { cookie: await cookieFor(t, user) };
    callers.push({ name, caller: session, userId: user.id, isGlobalAdmin, siblingIsForeign: !isGlobalAdmin });
    if (roleId === 1 || isGlobalAdmin) {
      // API keys of the same users: bound to the own zone, and (global administrator) to every zone.
      const body = isGlobalAdmin ? { name: 'matrix', zone_id: null } : { name: 'matrix' };
      const res = await clientFor(t, session).post(`/api/users/self/api_keys?o=${zone.id}`, body);
      expect(res.status).toBe(201);
      callers.push({
        name: `${name} (API key${isGlobalAdmin ? ', all zones' : ''})`,
        caller: { bearer: res.body.key },
        userId: user.id,
        isGlobalAdmin,
        siblingIsForeign: !isGlobalAdmin,
      });
    }
  }
  // Each caller gets its own objects in its zone to act on in the own-zone pass.
  for (const who of callers) {
    const world = await buildWorld(t, 'OWN', account.id, account.name, zone.id, zone.uuid);
    const [key] = await t.db
      .insert(apiKeys)
      .values({
        userId: who.userId,
        organizationId: zone.id,
        name: 'throwaway',
        prefix: 'pw_throw',
        keyHash: randomBytes(32).toString('hex'),
        createdAt: t.clock.now(),
      })
      .returning();
    own.set(who.name, { ...world.ids, key: key!.id });
  }
});

const results = {
  /** Calls against the other side's objects. */
  cases: 0,
  /** Calls in the caller's own zone. */
  ownCases: 0,
  unreachedCases: 0,
  leaks: [] as string[],
  failures: [] as string[],
  unreached: new Set<string>(),
};

afterAll(async () => {
  const routeCount = routes.length;
  // eslint-disable-next-line no-console -- issue 3 asks for these figures in the test output
  console.log(
    `authz route matrix: ${routeCount} session routes × ${callers.length} callers: ${results.cases} cases ` +
      `against another account or zone, ${results.ownCases} in the caller's own zone; ` +
      `${results.leaks.length} leaks; ${results.failures.length} failures; ` +
      `${results.unreachedCases} case(s) on ${results.unreached.size} route(s) refused the sampled input with 400 ` +
      `before reaching authorization: ` +
      `${[...results.unreached].join(', ') || 'none'}`,
  );
  await t.close();
});

function containsMarker(answer: Answer, world: World): string | undefined {
  return world.markers.find((m) => answer.text.includes(m));
}

/** Calls `route` as `who` against `world` (another account's, or a zone the caller does not belong to). */
async function probe(
  who: Who,
  route: GuardedRoute,
  world: World,
  variant: string,
  o: number,
  params: Record<string, number | string>,
) {
  const request = requestFor(route, o, params, world.ids);
  const answer = await call(t, who.caller, request.method, request.path, request.body);
  results.cases++;
  const id = `${who.name}: ${request.method} ${request.path} [${variant}]`;
  const key = `${route.method} ${route.url}`;
  const marker = containsMarker(answer, world);
  const isSuccess = answer.status < 300 && !SELF_SCOPED.has(key);
  if (marker || isSuccess) {
    return results.leaks.push(`${id} → ${answer.status}${marker ? ` containing ${marker}` : ''}`);
  }
  if (answer.status >= 500) return results.failures.push(`${id} → ${answer.status} ${answer.text.slice(0, 200)}`);
  if (answer.status < 300 || [401, 403, 404].includes(answer.status)) return;
  // A route about the caller alone may refuse for the caller's own state (409: MFA not on).
  if (SELF_SCOPED.has(key) && answer.status === 409) return;
  // Refused for its input before anything was looked up: no data, but authorization was not exercised.
  if (answer.status === 400 && (!request.isSampleValid || answer.body?.code === 'validation')) {
    results.unreachedCases++;
    return results.unreached.add(key);
  }
  results.failures.push(`${id} → ${answer.status} (expected 401, 403 or 404) ${answer.text.slice(0, 200)}`);
}

describe('route matrix', () => {
  it('finds the session routes of every module', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'GET /api/orgs/:id',
      'POST /api/orgs',
      'GET /api/rbacroles',
      'DELETE /api/users/self/api_keys/:id',
      'GET /api/accounts/:accountId/zones',
      'GET /api/banners',
      'GET /api/policies',
      'PUT /api/policies/:id',
      'POST /api/policies/:id/action',
      'GET /api/policies/:id/runs/:runId/results',
      'GET /api/servers/:id/policies',
      'PUT /api/approvals/:id',
      'GET /api/worklet-catalog',
      'POST /api/servers/imports',
      'GET /api/servers/imports',
      'DELETE /api/servers/imports/:id',
      'POST /api/policies/installers',
      'GET /api/policies/installers/:id',
      'DELETE /api/policies/installers/:id',
      'GET /api/accounts/:accountId/flags',
      'PUT /api/accounts/:accountId/flags',
      'GET /api/accounts/:accountId/zones/:zoneId/flags',
      'PUT /api/accounts/:accountId/zones/:zoneId/flags',
      'PUT /api/accounts/:accountId/zones/:zoneId/plan',
      'GET /api/orgs/:orgId/tasks',
      'DELETE /api/orgs/:orgId/tasks',
      'POST /api/orgs/:orgId/tasks/execute',
      'GET /api/orgs/:orgId/tasks/:taskId',
      'PATCH /api/orgs/:orgId/tasks/:taskId',
      'GET /api/orgs/:orgId/tasks/:taskId/jobs',
      'GET /api/orgs/:orgId/tasks/:taskId/csv',
      'GET /api/orgs/:orgId/cves',
      'GET /api/orgs/:orgId/cves/summary',
      'GET /api/orgs/:orgId/cves/csv',
      'GET /api/orgs/:orgId/cves/:cve',
      'POST /api/orgs/:orgId/cves/:cve/exceptions',
      'DELETE /api/orgs/:orgId/cve-exceptions/:exceptionId',
      'GET /api/orgs/:orgId/remediation-deadlines',
      'PUT /api/orgs/:orgId/remediation-deadlines',
      'GET /api/reports/overview',
      'GET /api/reports/dashboard',
      'GET /api/onboarding',
      'GET /api/reports/prepatch',
      'GET /api/reports/prepatch/csv',
      'GET /api/reports/needs-attention',
      'GET /api/reports/policy-results/:policyUuid',
      'POST /api/reports/data-extracts',
      'GET /api/reports/data-extracts/:extractId/csv',
      'GET /api/reports/schedules',
      'POST /api/reports/schedules',
      'PUT /api/reports/schedules/:scheduleId',
      'DELETE /api/reports/schedules/:scheduleId',
      'POST /api/reports/schedules/:scheduleId/send',
      'GET /api/reports/schedules/:scheduleId/sends',
      'GET /api/orgs/:orgId/tasks/:type/batches/formats',
      'POST /api/orgs/:orgId/tasks/:type/batches/upload',
      'GET /api/orgs/:orgId/tasks/batches',
      'GET /api/orgs/:orgId/tasks/batches/:batchId',
      'GET /api/orgs/:orgId/tasks/batches/:batchId/issues',
      'GET /api/orgs/:orgId/tasks/batches/:batchId/vulnerabilities',
      'GET /api/orgs/:orgId/tasks/batches/:batchId/solutions',
      'GET /api/orgs/:orgId/tasks/batches/:batchId/unknown-hosts',
      'POST /api/orgs/:orgId/tasks/batches/:batchId/accept',
      'POST /api/orgs/:orgId/tasks/batches/:batchId/reject',
      'GET /api/orgs/:orgId/tasks/batches/:batchId/csv',
      'GET /api/events',
      'GET /api/events/csv',
      'GET /api/webhooks/:webhookId',
      'POST /api/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
      'POST /api/users/:id/tfa/reset',
      'GET /api/orgs/:id/security',
      'PUT /api/orgs/:id/require-mfa',
      'PUT /api/orgs/:id/require-sso',
      'PUT /api/accounts/:accountId/require-mfa',
      'POST /api/servers/:id/remote-sessions',
      'GET /api/remote-sessions/:id',
      'GET /api/remote-sessions/:id/transcript',
      'POST /api/remote-sessions/:id/end',
      'GET /api/remote-sessions/:id/tunnel',
      'GET /api/remote-settings',
      'PUT /api/remote-settings',
    ]) {
      expect(keys).toContain(expected);
    }
  });

  it('refuses every route for objects of another account and of zones the caller does not belong to (0 leaks)', async () => {
    for (const who of callers) {
      const targets: [string, World][] = [['other account', foreign]];
      if (who.siblingIsForeign) targets.push(['other zone', sibling]);
      const probes: (() => Promise<unknown>)[] = [];
      for (const route of routes) {
        for (const [label, world] of targets) {
          for (const params of paramSets(route, world)) {
            probes.push(() => probe(who, route, world, `${label}: o and ids`, world.ids.zone, params));
            if (Object.keys(params).length && !SHARED_OBJECT_ROUTES.has(`${route.method} ${route.url}`))
              probes.push(() => probe(who, route, world, `${label}: own o, its ids`, ownZoneId, params));
          }
        }
      }
      // Every probe is refused, so none changes what another sees: a few at a time overlap
      // their database round trips (PostgreSQL), as concurrent requests do in production.
      await inTurns(probes, 4);
    }
    expect(results.leaks).toEqual([]);
    expect(results.failures).toEqual([]);
    // This file's own modules get inputs their schemas accept, so authorization is what refused.
    const ours = [...results.unreached].filter((r) =>
      /\/api\/(orgs|rbacroles|permissions|reports|accounts\/:accountId\/(zones|session-settings|flags|domains|connections))|api_keys/.test(
        r,
      ),
    );
    expect(ours).toEqual([]);
    // Thousands of real HTTP calls, growing with every module's routes: beyond vitest's default 30 s.
  }, 300_000);

  it('decides authorization on every route in the caller’s own zone (never 500, never authz.missing)', async () => {
    const failures: string[] = [];
    for (const who of callers) {
      const ids = own.get(who.name)!;
      for (const route of routes) {
        for (const params of paramSets(route, { ids, markers: [] })) {
          const request = requestFor(route, ownZoneId, params, ids);
          const answer = await call(t, who.caller, request.method, request.path, request.body);
          results.ownCases++;
          if (answer.status >= 500) {
            failures.push(
              `${who.name}: ${request.method} ${request.path} → ${answer.status} ${answer.text.slice(0, 200)}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // 1,789 real calls, some of which do real work (uploads, extracts, executions): on CI's two
    // busy cores they took over 120 s.
  }, 300_000);
});
