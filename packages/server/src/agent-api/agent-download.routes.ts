import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { AppError } from '../domain/errors';
import { AGENT_BUNDLE_NAME, AGENT_DOWNLOAD_PATH, agentBundle, type AgentBundleSource } from './agent-bundle';

/**
 * `GET /api/agent/v1/download/patchwell-agent.cjs`: the agent for the install instructions.
 * Public: it is the same open-source code for everyone and carries no secret (the zone key
 * is typed in at enrolment). Revalidated by ETag, so a rebuilt agent is picked up at once.
 */
export async function agentDownloadRoutes(
  root: FastifyInstance,
  source: AgentBundleSource = agentBundle,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    AGENT_DOWNLOAD_PATH,
    {
      config: { access: 'public' },
      schema: {
        tags: ['agent'],
        summary: 'Download the agent',
        description:
          'The one-file agent for Node.js 20+. `X-Checksum-SHA256` is its hex SHA-256 (the install commands check ' +
          'it), also the ETag. 404 `agent.bundle_missing` when the server has not built it.',
        response: { 200: z.any(), 304: z.any(), 404: ZApiError },
      },
    },
    async (request, reply) => {
      const bundle = await source.read();
      if (!bundle) throw new AppError('agent.bundle_missing');
      const etag = `"${bundle.sha256}"`;
      reply.headers({
        etag,
        'cache-control': 'public, no-cache',
        'last-modified': bundle.modifiedAt.toUTCString(),
        'x-checksum-sha256': bundle.sha256,
        'repr-digest': `sha-256=:${Buffer.from(bundle.sha256, 'hex').toString('base64')}:`,
      });
      const match = request.headers['if-none-match'];
      if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
        return reply.code(304).send();
      }
      return reply
        .type('application/javascript; charset=utf-8')
        .header('content-disposition', `attachment; filename="${AGENT_BUNDLE_NAME}"`)
        .send(bundle.content);
    },
  );
}
