import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBannerList } from '@patchwell/core/shell/banner.schema';
import { ZClientConfig } from '@patchwell/core/shell/config.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { skipAuthorization } from '../../http/authz';
import { clientConfig, listActiveBanners } from './shell.service';

const tags = ['shell'];

/** What the console's frame needs: alert banners and its configuration. */
export async function shellRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/banners',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Alert banners active now',
        security: [{ cookieAuth: [] }],
        response: { 200: ZBannerList, 401: ZApiError },
      },
    },
    async (request) => {
      skipAuthorization(request, 'skipauth: every signed-in user sees the alert banners');
      return listActiveBanners(ctx);
    },
  );

  app.get(
    '/api/shared/js/config',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Client configuration: countries, help links, session defaults, sign-up',
        description: 'Always JSON; `json=true` is accepted for the console’s existing call.',
        querystring: z.object({ json: z.enum(['true', 'false', '1', '0']).optional() }).loose(),
        response: { 200: ZClientConfig },
      },
    },
    async () => clientConfig(ctx),
  );
}
