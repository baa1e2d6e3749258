import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app';
import { buildZoneWithKey, enrollBody, enrollDevice, inventoryBody, type EnrolledDevice } from './agents';
import { cookieFor } from './authz-helpers';
import { buildUser } from './factories';

/**
 * Sends every route of the app's own OpenAPI document text the database cannot store (NUL,
 * unpaired surrogates), overlong strings and values of the wrong type, in every path and
 * query parameter and every body field, signed in (a global administrator with a real zone;
 * a device's token on the agent API) and not. No answer may be a 5xx, and no NUL or unpaired
 * surrogate may be accepted. Deterministic: the same cases in the same order on every run.
 */

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  default?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  exclusiveMinimum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  nullable?: boolean;
};
type Parameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Document = { paths: Record<string, Record<string, Operation>> };

type Caller = { name: 'signed-in' | 'anonymous'; headers: Record<string, string> };
type Case = {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw payload (multipart); sent as is. */
  payload?: Buffer;
  /** What the case sends, for the failure list. */
  label: string;
  /** True when the case carries a NUL or an unpaired surrogate: it must be refused (4xx). */
  unstorable: boolean;
  /** True when the case carries a string longer than any field takes: it must be refused too. */
  overlong?: boolean;
};

// A small seeded generator, so "random" overlong text is the same on every run.
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const random = seeded(20261125);
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.éüßñ漢字€😀';
/** Text that does not compress (so an index on it cannot shrink it below its size limit). */
function noise(length: number, alphabet = ALPHABET): string {
  const chars = [...alphabet];
  let out = '';
  for (let i = 0; i < length; i++) out += chars[Math.floor(random() * chars.length)];
  return out;
}

const UNSTORABLE_TEXTS = ['a\u0000b', '\u0000', '\ud800', 'x\udfffy', 'ok\ud83d'];

/** A value the schema accepts, as far as a schema alone can tell (required fields only). */
function sample(schema: Schema | undefined, ids: Ids, name = '', depth = 0): unknown {
  if (!schema || depth > 8) return 'fuzz';
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.oneOf?.[0] ?? schema.anyOf?.find((s) => s.type !== 'null') ?? schema.allOf?.[0];
  if (choice) return sample(choice, ids, name, depth + 1);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key], ids, key, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, ids, name, depth + 1));
    case 'integer':
    case 'number':
      return idFor(name, ids) ?? Math.max(schema.minimum ?? 0, 0) + (schema.exclusiveMinimum ? 1 : 0);
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'email' || /email/.test(name)) return 'fuzz@example.com';
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000001';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (schema.format === 'uri') return 'https://example.com/';
      return 'fuzz'.padEnd(Math.max(schema.minLength ?? 1, 4), 'z').slice(0, schema.maxLength ?? 100);
    default:
      return 'fuzz';
  }
}

type Ids = { accountId: number; zoneId: number; userId: number };
/** Real ids for the tenant's own account and zone; a missing one for anything else. */
function idFor(name: string, ids: Ids): number | undefined {
  if (name === 'accountId') return ids.accountId;
  if (['o', 'org', 'orgId', 'zoneId', 'organization_id'].includes(name)) return ids.zoneId;
  if (name === 'id' || name.endsWith('Id') || name.endsWith('_id')) return MISSING_ID;
  return undefined;
}
const MISSING_ID = 987_654;

/** Objects of the tenant that path ids name, so the cases reach the services and stores behind them. */
type Objects = { zoneId: number; deviceId: number; groupId: number; policyId: number; userId: number };

/**
 * The real id a path parameter gets on `path`, or undefined for a missing one. A DELETE always
 * gets a missing id, so the objects stay for the routes after it; the signed-in administrator
 * is never the user a route edits.
 */
function realIdFor(method: string, path: string, name: string, objects: Objects): number | undefined {
  if (method === 'DELETE' && name !== 'accountId') return undefined;
  if (name === 'userId' || (name === 'id' && path.startsWith('/api/users/{id}'))) return objects.userId;
  if (name !== 'id') return undefined;
  if (path.startsWith('/api/orgs/{id}')) return objects.zoneId;
  if (path.startsWith('/api/servers/{id}')) return objects.deviceId;
  if (path.startsWith('/api/servergroups/{id}')) return objects.groupId;
  if (path.startsWith('/api/policies/{id}')) return objects.policyId;
  return undefined;
}

/** Values of the wrong kind (and overlong ones) for a JSON field of `schema`. */
function badJsonValues(
  schema: Schema | undefined,
): { value: unknown; label: string; unstorable: boolean; overlong?: boolean }[] {
  const texts = UNSTORABLE_TEXTS.map((value) => ({ value, label: JSON.stringify(value), unstorable: true }));
  const type = schema?.type ?? schema?.oneOf?.[0]?.type ?? schema?.anyOf?.[0]?.type;
  const common = [
    { value: null, label: 'null', unstorable: false },
    { value: { '\u0000': 1 }, label: '{"\\u0000":1}', unstorable: true },
    { value: [noise(10)], label: 'array', unstorable: false },
  ];
  switch (type) {
    case 'string':
      return [
        ...texts,
        ...common,
        { value: noise((schema?.maxLength ?? 0) + 1), label: `string of maxLength+1`, unstorable: false },
        {
          value: noise(100_000),
          label: 'string of 100000',
          unstorable: false,
          // Must be refused unless the field takes that much (a script takes 256 KiB).
          overlong: (schema?.maxLength ?? 0) < 100_000,
        },
        { value: 42, label: '42', unstorable: false },
        { value: true, label: 'true', unstorable: false },
      ];
    case 'integer':
    case 'number':
      return [
        ...texts,
        ...common,
        { value: 'abc', label: '"abc"', unstorable: false },
        { value: 1e300, label: '1e300', unstorable: false },
        { value: 2 ** 31, label: '2^31', unstorable: false },
        { value: -1, label: '-1', unstorable: false },
        { value: 1.5, label: '1.5', unstorable: false },
      ];
    case 'boolean':
      return [...texts, ...common, { value: 'maybe', label: '"maybe"', unstorable: false }];
    case 'array':
      return [
        ...texts,
        { value: null, label: 'null', unstorable: false },
        { value: [UNSTORABLE_TEXTS[0]], label: '["a\\u0000b"]', unstorable: true },
        { value: [UNSTORABLE_TEXTS[2]], label: '["\\ud800"]', unstorable: true },
        {
          value: Array.from({ length: (schema?.maxItems ?? 1000) + 1 }, () => 1),
          label: 'maxItems+1',
          unstorable: false,
        },
        { value: { a: 1 }, label: '{"a":1}', unstorable: false },
      ];
    default:
      return [...texts, ...common, { value: 'x', label: '"x"', unstorable: false }];
  }
}

/** Raw (already percent-encoded) query and path values of the wrong kind. */
const BAD_URL_VALUES: { value: string; label: string; unstorable: boolean }[] = [
  { value: '%00', label: '%00', unstorable: true },
  { value: 'a%00b', label: 'a%00b', unstorable: true },
  // The UTF-8-like encoding of a lone surrogate: not valid UTF-8, so it must not decode to one.
  { value: '%ED%A0%80', label: '%ED%A0%80', unstorable: false },
  { value: '%FF', label: '%FF', unstorable: false },
  { value: noise(4000, 'abcdefghijklmnopqrstuvwxyz0123456789'), label: 'string of 4000', unstorable: false },
  { value: 'abc', label: 'abc', unstorable: false },
  { value: '99999999999999999999', label: '1e20', unstorable: false },
  { value: '2147483648', label: '2^31', unstorable: false },
  { value: '-1', label: '-1', unstorable: false },
  { value: '1.5', label: '1.5', unstorable: false },
  { value: '', label: 'empty', unstorable: false },
];

/** The body fields to fuzz: every property path (and array item) down to a few levels. */
function fieldsOf(schema: Schema | undefined, path: (string | number)[] = [], depth = 0) {
  const out: { path: (string | number)[]; schema: Schema | undefined }[] = [];
  if (!schema || depth > 4) return out;
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.find((s) => s.type !== 'null') ?? schema;
  if (variant.type === 'object' && variant.properties) {
    for (const [key, child] of Object.entries(variant.properties)) {
      out.push({ path: [...path, key], schema: child });
      out.push(...fieldsOf(child, [...path, key], depth + 1));
    }
  } else if (variant.type === 'array' && variant.items) {
    const items = variant.items.oneOf?.[0] ?? variant.items;
    if (items.type === 'object') out.push(...fieldsOf(items, [...path, 0], depth + 1));
  }
  return out;
}

function withValue(base: unknown, path: (string | number)[], value: unknown): unknown {
  const root = structuredClone(base ?? {}) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = root;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      at[key] = value;
      return;
    }
    const next = path[i + 1];
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = typeof next === 'number' ? [] : {};
    at = at[key] as Record<string | number, unknown>;
  });
  return root;
}

const encodeQuery = (query: Record<string, unknown>) =>
  Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

function multipart(filename: string, content: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'fuzz-boundary-7d1c';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A patch policy on one group, unscheduled. */
function policyBody(groupId: number) {
  return {
    name: 'Fuzz policy',
    policy_type_name: 'patch',
    server_groups: [groupId],
    schedule_days: 0,
    schedule_time: '02:00',
    use_scheduled_timezone: true,
    configuration: { auto_patch: true, notify_user: false, auto_reboot: false, patch_rule: 'all' },
    notes: '',
  };
}

/** Bodies the schema alone cannot make valid (real keys, matching passwords), so cases reach the stores. */
function knownBodies(accessKey: string, objects: Objects): Record<string, unknown> {
  const policy = policyBody(objects.groupId);
  return {
    'POST /api/policies': policy,
    'PUT /api/policies/{id}': policy,
    'POST /api/policies/preview': policy,
    'POST /api/inviteUser': { email: 'fuzz-invitee@example.com', role_id: 2 },
    'POST /api/servers/batch': { action: 'tag', ids: [objects.deviceId], tags: ['fuzz'] },
    'POST /api/agent/v1/enroll': enrollBody(accessKey, { hostname: 'fuzz-enrolled' }),
    'PUT /api/agent/v1/inventory': inventoryBody({ hostname: 'fuzz-device' }),
    'POST /api/agent/v1/checkin': { status: { logged_in_user: 'fuzz' }, inventory_hash: null, wait_s: 0 },
    'POST /api/signup': {
      firstname: 'Fuzz',
      lastname: 'Test',
      company: 'Fuzz Ltd',
      email: 'fuzz-signup@example.com',
      password: 'fuzz-password-long-enough-42',
      password_confirmation: 'fuzz-password-long-enough-42',
      endpoints: 10,
    },
  };
}

/** Every case for one operation, as `caller` (headers added when sent). */
function casesFor(
  urlTemplate: string,
  method: string,
  op: Operation,
  ids: Ids,
  objects: Objects,
  known?: unknown,
): Case[] {
  const params = op.parameters ?? [];
  const pathValues: Record<string, string> = {};
  for (const p of params.filter((p) => p.in === 'path')) {
    const real = realIdFor(method, urlTemplate, p.name, objects);
    pathValues[p.name] = encodeURIComponent(String(real ?? sample(p.schema, ids, p.name)));
  }
  const query: Record<string, unknown> = {};
  for (const p of params.filter((p) => p.in === 'query')) {
    if (p.required || p.name === 'o') query[p.name] = sample(p.schema, ids, p.name);
  }
  const urlWith = (path: Record<string, string>, q: string) =>
    urlTemplate.replace(/\{(\w+)\}/g, (_, name: string) => path[name] ?? 'x') + (q ? `?${q}` : '');
  const jsonSchema = op.requestBody?.content?.['application/json']?.schema;
  const isMultipart =
    Boolean(op.requestBody?.content?.['multipart/form-data']) ||
    /imports$|installers$|batches\/upload$/.test(urlTemplate);
  const body = known ?? (jsonSchema ? sample(jsonSchema, ids) : undefined);
  const baseQuery = encodeQuery(query);
  const cases: Case[] = [];
  const add = (c: Omit<Case, 'method'>) => cases.push({ method, ...c });

  add({ url: urlWith(pathValues, baseQuery), body, label: 'baseline', unstorable: false });
  for (const p of params.filter((p) => p.in === 'path')) {
    for (const bad of BAD_URL_VALUES) {
      if (bad.value === '') continue;
      add({
        url: urlWith({ ...pathValues, [p.name]: bad.value }, baseQuery),
        body,
        label: `path ${p.name}=${bad.label}`,
        unstorable: bad.unstorable,
      });
    }
  }
  for (const p of params.filter((p) => p.in === 'query')) {
    for (const bad of [...BAD_URL_VALUES, { value: '1', label: `${p.name}[a]=1 (an object)`, unstorable: false }]) {
      const others = encodeQuery(Object.fromEntries(Object.entries(query).filter(([k]) => k !== p.name)));
      const key = bad.label.includes('[a]') ? `${p.name}%5Ba%5D` : p.name;
      const q = [others, `${key}=${bad.value}`].filter(Boolean).join('&');
      add({ url: urlWith(pathValues, q), body, label: `query ${p.name}=${bad.label}`, unstorable: bad.unstorable });
    }
  }
  if (jsonSchema) {
    for (const whole of [[], 'x', 1, null, UNSTORABLE_TEXTS[0]]) {
      add({
        url: urlWith(pathValues, baseQuery),
        body: whole,
        label: `body ${JSON.stringify(whole)}`,
        unstorable: whole === UNSTORABLE_TEXTS[0],
      });
    }
    for (const field of fieldsOf(jsonSchema)) {
      for (const bad of badJsonValues(field.schema)) {
        add({
          url: urlWith(pathValues, baseQuery),
          body: withValue(body, field.path, bad.value),
          label: `body ${field.path.join('.')}=${bad.label}`,
          unstorable: bad.unstorable,
          overlong: bad.overlong ?? false,
        });
      }
    }
  }
  if (isMultipart && method === 'POST') {
    const files: [string, Buffer, string, boolean][] = [
      ['a\u0000b.csv', Buffer.from('hostname\nfuzz-1\n'), 'filename with NUL', true],
      // An installer is binary (NUL is fine there); a host-import CSV is text.
      [
        'hosts.csv',
        Buffer.from('hostname,notes\nfuzz-2,a\u0000b\n'),
        'CSV cell with NUL',
        /imports$|batches\/upload$/.test(urlTemplate),
      ],
      [
        'hosts.csv',
        Buffer.from([...Buffer.from('hostname,notes\nfuzz-3,'), 0xed, 0xa0, 0x80, 0x0a]),
        'CSV cell with an encoded surrogate',
        false,
      ],
      ['hosts.csv', Buffer.from(`hostname,notes\nfuzz-4,${noise(100_000)}\n`), 'CSV cell of 100000', false],
      [noise(5000, 'abcdef'), Buffer.from('hostname\nfuzz-5\n'), 'file name of 5000', false],
    ];
    for (const [name, content, label, unstorable] of files) {
      const { payload, headers } = multipart(name, content);
      add({ url: urlWith(pathValues, baseQuery), payload, headers, label: `multipart ${label}`, unstorable });
    }
  }
  return cases;
}

let t: TestApp;
let ids: Ids;
let device: EnrolledDevice;
let zone: Awaited<ReturnType<typeof buildZoneWithKey>>;
let objects: Objects;

beforeAll(async () => {
  t = await startTestApp();
  zone = await buildZoneWithKey(t);
  ids = { accountId: zone.account.id, zoneId: zone.zone.id, userId: zone.user.id };
  device = await enrollDevice(t, zone.accessKey, { hostname: 'fuzz-device' });
  const o = zone.zone.id;
  const group = await zone.admin.post(`/api/servergroups?o=${o}`, { name: 'Fuzz group' });
  const policy = await zone.admin.post(`/api/policies?o=${o}`, policyBody(group.body.id));
  const other = await buildUser(t.db, { accountId: zone.account.id, zones: { [o]: 2 } });
  expect([group.status, policy.status]).toEqual([201, 201]);
  objects = { zoneId: o, deviceId: device.id, groupId: group.body.id, policyId: policy.body.id, userId: other.id };
});
afterAll(async () => {
  await t.close();
});

describe('every route of the OpenAPI document, fuzzed', () => {
  it('answers no NUL, unpaired surrogate, overlong string or wrong type with a 5xx', { timeout: 240_000 }, async () => {
    const doc = t.app.swagger() as unknown as Document;
    const failures: string[] = [];
    const accepted: string[] = [];
    let routes = 0;
    let sent = 0;
    /** Routes whose valid-looking baseline the signed-in caller got a 2xx for (the cases reach the stores). */
    let reached = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      // The docs UI serves files; it takes no input worth fuzzing.
      if (path.startsWith('/api/docs')) continue;
      for (const [lower, op] of Object.entries(methods)) {
        const method = lower.toUpperCase();
        routes++;
        // A fresh session per route: an earlier case may have signed this one out.
        const cookie = await cookieFor(t, zone.user);
        const signedIn: Caller = path.startsWith('/api/agent/')
          ? { name: 'signed-in', headers: { authorization: `Bearer ${device.token}` } }
          : { name: 'signed-in', headers: { cookie } };
        const callers: Caller[] = [signedIn, { name: 'anonymous', headers: {} }];
        const known = knownBodies(zone.accessKey, objects)[`${method} ${path}`];
        for (const c of casesFor(path, method, op, ids, objects, known)) {
          for (const caller of callers) {
            sent++;
            const res = await t.app.inject({
              method: c.method as 'GET',
              url: c.url,
              headers: {
                ...caller.headers,
                ...(c.payload ? {} : c.body !== undefined ? { 'content-type': 'application/json' } : {}),
                ...c.headers,
              },
              ...(c.payload ? { payload: c.payload } : c.body !== undefined ? { payload: JSON.stringify(c.body) } : {}),
            });
            const line = `${c.method} ${path} [${caller.name}] ${c.label} → ${res.statusCode}`;
            if (c.label === 'baseline' && caller === signedIn && res.statusCode < 300) reached++;
            if (res.statusCode >= 500) failures.push(`${line} ${res.body.slice(0, 200)}`);
            else if ((c.unstorable || c.overlong) && res.statusCode < 400) accepted.push(line);
          }
        }
      }
    }
    // Extra cases on the credentials the access hook reads before any route.
    const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
    for (const headers of [
      { authorization: basic('a\u0000@example.com:pw') },
      { authorization: basic('admin@example.com:pass\u0000word') },
      { cookie: 'pw_session=abc%00def' },
    ]) {
      sent++;
      const res = await t.app.inject({ method: 'GET', url: '/api/users/self', headers });
      const line = `GET /api/users/self ${JSON.stringify(headers)} → ${res.statusCode}`;
      if (res.statusCode >= 500) failures.push(line);
      else if (res.statusCode < 400) accepted.push(line);
    }
    process.stdout.write(
      `fuzz: ${routes} routes (${reached} answered their baseline with 2xx), ${sent} cases, ${failures.length} answers of 5xx, ` +
        `${accepted.length} inputs with NUL, an unpaired surrogate or 100,000 characters accepted\n`,
    );
    expect(failures, failures.join('\n')).toEqual([]);
    expect(accepted, accepted.join('\n')).toEqual([]);
  });
});
