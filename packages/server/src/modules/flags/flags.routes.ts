import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import {
  ZFeatureFlagsState,
  ZPutFeatureFlagsBody,
  ZPutZonePlanBody,
  ZZonePlan,
} from '@patchwell/core/shell/flags.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { ZAccountParams, ZIdParam } from '../../http/params';
import { getAccountFlags, getZoneFlags, putAccountFlags, putZoneFlags, putZonePlan } from './flags.service';

const tags = ['flags'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const ZAccountZoneParams = ZAccountParams.extend({ zoneId: ZIdParam });
const accountOnly =
  'Global administrators of the account only: another account or zone answers 404, other users of the account 403.';
const levels =
  'A flag’s value is the zone’s override, else the account’s, else the server default (core’s, then `PATCHWELL_FLAGS`).';
const putBody =
  'Body: flags to change, `true`/`false` to set an override, `null` to remove it; unnamed flags keep theirs. ' +
  '400 for an unknown flag.';

/** Feature flags per account and zone, and a zone's plan (Global setup › Settings). */
export async function flagsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/:accountId/flags',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The account’s feature flags',
        description: `${levels} ${accountOnly}`,
        security,
        params: ZAccountParams,
        response: { 200: ZFeatureFlagsState, ...errors },
      },
    },
    async (request) => getAccountFlags(ctx, requireAuthz(request), request.params.accountId),
  );

  app.put(
    '/api/accounts/:accountId/flags',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set or remove the account’s feature flag overrides',
        description: `${putBody} Zones without their own override follow. ${accountOnly}`,
        security,
        params: ZAccountParams,
        body: ZPutFeatureFlagsBody,
        response: { 200: ZFeatureFlagsState, ...errors },
      },
    },
    async (request) => putAccountFlags(ctx, requireAuthz(request), request.params.accountId, request.body),
  );

  app.get(
    '/api/accounts/:accountId/zones/:zoneId/flags',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A zone’s feature flags',
        description: `${levels} ${accountOnly}`,
        security,
        params: ZAccountZoneParams,
        response: { 200: ZFeatureFlagsState, ...errors },
      },
    },
    async (request) => getZoneFlags(ctx, requireAuthz(request), request.params.accountId, request.params.zoneId),
  );

  app.put(
    '/api/accounts/:accountId/zones/:zoneId/flags',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set or remove a zone’s feature flag overrides',
        description: `${putBody} Recorded in the zone’s activity log. ${accountOnly}`,
        security,
        params: ZAccountZoneParams,
        body: ZPutFeatureFlagsBody,
        response: { 200: ZFeatureFlagsState, ...errors },
      },
    },
    async (request) =>
      putZoneFlags(ctx, requireAuthz(request), request.params.accountId, request.params.zoneId, request.body),
  );

  app.put(
    '/api/accounts/:accountId/zones/:zoneId/plan',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set a zone’s plan (until billing sets plans)',
        description: `\`plan\`: patch (Basic), manage (Standard) or tier3 (Complete). Recorded in the zone’s activity log. ${accountOnly}`,
        security,
        params: ZAccountZoneParams,
        body: ZPutZonePlanBody,
        response: { 200: ZZonePlan, ...errors },
      },
    },
    async (request) =>
      putZonePlan(ctx, requireAuthz(request), request.params.accountId, request.params.zoneId, request.body),
  );
}
