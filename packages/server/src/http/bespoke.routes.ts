import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BESPOKE_BASE } from '@patchwell/core/constants';

/**
 * The spec's second API base (spec A §7: "a bespoke API base is /bespoke"). Later issues
 * put their calls here; for now it answers its own health probe, and anything else under
 * /bespoke is a JSON 404 like /api.
 */
export async function bespokeRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${BESPOKE_BASE}/healthz`,
    {
      config: { access: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'The bespoke API base is routed',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}
