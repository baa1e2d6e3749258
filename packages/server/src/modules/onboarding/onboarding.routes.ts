import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZOnboarding, ZOnboardingQuery } from '@patchwell/core/onboarding/onboarding.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { errors, security } from '../reports/reports.routes';
import { getOnboarding } from './onboarding.service';

/** The quick start guide's steps (`/onboarding` in the console). */
export async function onboardingRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/onboarding',
    {
      config: { access: 'session' },
      schema: {
        tags: ['onboarding'],
        summary: 'The quick start guide’s steps, each done when it happened in the zone',
        description:
          'Endpoint.read. Steps 0 set up, 1 add device (a device enrolled), 2 scan for updates (an inventory ' +
          'received), 3 review results (the caller opened the prepatch or overview report), 4 patch the device (a ' +
          'successful, not simulated install). Once all are done the account’s `account_completed_qsg` is set.',
        security,
        querystring: ZOnboardingQuery,
        response: { 200: ZOnboarding, ...errors },
      },
    },
    async (request) => getOnboarding(ctx, requireAuthz(request), request.query),
  );
}
