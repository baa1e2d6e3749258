import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZSessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import {
  ZAccessKey,
  ZCreateZoneBody,
  ZSetPrefsBody,
  ZUpdateZoneBody,
  ZZone,
  ZZoneList,
  ZZonePrefList,
} from '@patchwell/core/zones/zones.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { accountZonesRoutes } from './account-zones.routes';
import {
  getAccessKey,
  getZonePrefs,
  getZoneSessionSettings,
  rotateAccessKey,
  setZonePrefs,
  setZoneSessionSettings,
} from './zone-settings.service';
import { createZone, getZone, listZones, setZoneDisabled, updateZoneById } from './zones.service';
import { ZIdParams } from '../../http/params';

const tags = ['zones'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Zones (`/api/orgs…`) and the account scope's zones and session settings. */
export async function zonesRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/orgs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zones the caller may enter',
        description: 'Sorted by name, each with its user count and the caller’s role name in it.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZZoneList, 401: ZApiError },
      },
    },
    async (request) => listZones(ctx, requireAuthz(request)),
  );

  app.post(
    '/api/orgs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Create a zone',
        description:
          'Organization.create in zone `o`. The parent is `o`’s parent (or `o` when top-level) and must be on ' +
          'the Complete plan or an unexpired trial (403 `zones.tier_required`). Names are unique per account, ' +
          'ignoring case (409). Trial zones beyond the first start disabled. The creator becomes Zone ' +
          'Administrator of the new zone unless they are a global administrator.',
        security,
        querystring: ZZoneQuery,
        body: ZCreateZoneBody,
        response: { 201: ZZone, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) => {
      const zone = await createZone(ctx, requireAuthz(request), request.query.o, request.body);
      return reply.code(201).send(zone);
    },
  );

  app.get(
    '/api/orgs/self/prefs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Preferences of zone o',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZZonePrefList, ...errors },
      },
    },
    async (request) => getZonePrefs(ctx, requireAuthz(request), request.query.o),
  );

  app.post(
    '/api/orgs/self/prefs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set preferences of zone o',
        description: 'Organization.manage. Creates or overwrites each preference sent; answers with all of them.',
        security,
        querystring: ZZoneQuery,
        body: ZSetPrefsBody,
        response: { 200: ZZonePrefList, ...errors },
      },
    },
    async (request) => setZonePrefs(ctx, requireAuthz(request), request.query.o, request.body),
  );

  app.get(
    '/api/orgs/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One zone',
        description: 'Organization.read in the zone; 404 for a zone the caller may not enter.',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        response: { 200: ZZone, ...errors },
      },
    },
    async (request) => getZone(ctx, requireAuthz(request), request.params.id),
  );

  app.put(
    '/api/orgs/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Rename a zone',
        description: 'Organization.manage in the zone. 409 when another zone of the account has the name.',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        body: ZUpdateZoneBody,
        response: { 200: ZZone, ...errors, 409: ZApiError },
      },
    },
    async (request) => updateZoneById(ctx, requireAuthz(request), request.params.id, request.body),
  );

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `/api/orgs/:id/${action}`,
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: disabled ? 'Disable a zone' : 'Enable a zone',
          description: 'Global administrators of the zone’s account only (403 for other members).',
          security,
          params: ZIdParams,
          querystring: ZZoneQuery,
          response: { 200: ZZone, ...errors },
        },
      },
      async (request) => setZoneDisabled(ctx, requireAuthz(request), request.params.id, disabled),
    );
  }

  app.get(
    '/api/orgs/:id/access-key',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s agent access key',
        description: 'Organization.manage. 409 `zones.access_key_unreadable` when the server’s secret key changed.',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        response: { 200: ZAccessKey, ...errors, 409: ZApiError },
      },
    },
    async (request) => getAccessKey(ctx, requireAuthz(request), request.params.id),
  );

  app.post(
    '/api/orgs/:id/access-key/rotate',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Replace the zone’s agent access key',
        description: 'Organization.manage. The previous key stops enrolling agents at once.',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        response: { 200: ZAccessKey, ...errors },
      },
    },
    async (request) => rotateAccessKey(ctx, requireAuthz(request), request.params.id),
  );

  app.get(
    '/api/orgs/:id/session-settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Session bounds of a zone',
        description: 'Organization.manage.',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        response: { 200: ZSessionSettings, ...errors },
      },
    },
    async (request) => getZoneSessionSettings(ctx, requireAuthz(request), request.params.id),
  );

  app.put(
    '/api/orgs/:id/session-settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set the session bounds of a zone',
        description:
          'Organization.manage. Lifetime 30 minutes to 2160 hours, idle timeout 30 minutes to 720 hours. ' +
          'Sessions of the zone’s users get the new bounds at once (a user in several zones has the strictest).',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        body: ZSessionSettings,
        response: { 200: ZSessionSettings, ...errors },
      },
    },
    async (request) => setZoneSessionSettings(ctx, requireAuthz(request), request.params.id, request.body),
  );

  await accountZonesRoutes(app, ctx);
}
