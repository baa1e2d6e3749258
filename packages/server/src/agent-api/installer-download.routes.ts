import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../context';
import { bearerToken } from '../http/access';
import { openInstallerForDevice } from '../modules/installers/installers.service';
import type { AgentRuntime } from './agent-runtime';
import { authenticateDevice } from './agent.service';

/** An RFC 6266 `filename*` value, so any uploaded name survives the header. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * `GET /api/agent/v1/installers/{id}`: a required-software policy's installer, for a device
 * of its zone that has an open install command carrying it (the command's args name it).
 * Streamed from disk; the agent checks the length and `X-Checksum-SHA256` before running it.
 */
export async function installerDownloadRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  agents: AgentRuntime,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const actx = { ...ctx, agents };
  app.get(
    '/api/agent/v1/installers/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['agent'],
        summary: 'Download a policy’s installer',
        description:
          'Device token. Only while the device has a pending or in-progress `install_package` command whose ' +
          '`args.installer.id` is this id; otherwise (another zone, no such command, unknown id) 404.',
        security: [{ bearerAuth: [] }],
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: z.any(), 401: ZApiError, 404: ZApiError, 410: ZApiError, 429: ZApiError },
      },
    },
    async (request, reply) => {
      const device = await authenticateDevice(actx, bearerToken(request));
      const { row, stream, sizeBytes } = await openInstallerForDevice(ctx, device, request.params.id);
      return reply
        .type('application/octet-stream')
        .headers({
          'content-length': String(sizeBytes),
          'content-disposition': attachment(row.name),
          'x-checksum-sha256': row.sha256,
        })
        .send(stream);
    },
  );
}
