import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZInstallerFile } from '@patchwell/core/policies/policy-configuration.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { firstFilePart, registerSingleFileUploads } from '../../http/uploads';
import { removeTemporaryRoot } from './installers.files';
import {
  deleteInstaller,
  getInstaller,
  installerTooLarge,
  uploadInstaller,
  type InstallerUpload,
} from './installers.service';

const tags = ['policies'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** `:id` of an installer (a UUID; anything else is simply not found). */
const ZInstallerIdParams = z.object({ id: z.string().min(1).max(100) });

/** The request's first file part, streamed (never buffered: installers reach 512 MiB). */
async function firstFile(request: FastifyRequest, limit: number): Promise<InstallerUpload> {
  const part = await firstFilePart(request, {
    notMultipart: 'installers.not_multipart',
    noFile: 'installers.no_file',
    tooLarge: () => installerTooLarge(limit),
  });
  return { filename: part.filename, stream: part.file, isTruncated: () => part.file.truncated };
}

/**
 * Installers of required-software policies (`/api/policies/installers…`). Multipart parsing
 * is registered in this plugin only, with the installer limit; the rest of the API stays JSON.
 */
export async function installersRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const limit = ctx.config.installerMaxBytes;
  root.addHook('onClose', async () => removeTemporaryRoot(ctx.config));
  await root.register(async (scope) => {
    await registerSingleFileUploads(scope, limit);
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/policies/installers',
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'Upload an installer for a required-software policy',
          description:
            'RequiredSoftwarePolicy.create or .modify. multipart/form-data with one file (at most ' +
            '`INSTALLER_MAX_BYTES`, 512 MiB by default; 413 above it, nothing is kept). Answers the stored file: ' +
            'reference it as the policy’s `configuration.installer`, with an `installation_code`.',
          security,
          consumes: ['multipart/form-data'],
          querystring: ZZoneQuery,
          response: { 201: ZInstallerFile, 413: ZApiError, 415: ZApiError, ...errors },
        },
      },
      async (request, reply) => {
        const file = await uploadInstaller(ctx, requireAuthz(request), request.query.o, () =>
          firstFile(request, limit),
        );
        return reply.code(201).send(file);
      },
    );

    app.get(
      '/api/policies/installers/:id',
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'An uploaded installer',
          description: 'RequiredSoftwarePolicy.read. Another zone’s installer answers 404.',
          security,
          querystring: ZZoneQuery,
          params: ZInstallerIdParams,
          response: { 200: ZInstallerFile, ...errors },
        },
      },
      async (request) => getInstaller(ctx, requireAuthz(request), request.query.o, request.params.id),
    );

    app.delete(
      '/api/policies/installers/:id',
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'Remove an uploaded installer',
          description:
            'RequiredSoftwarePolicy.create or .modify. 409 `installers.in_use` while a policy of the zone references it.',
          security,
          querystring: ZZoneQuery,
          params: ZInstallerIdParams,
          response: { 204: z.void(), 409: ZApiError, ...errors },
        },
      },
      async (request, reply) => {
        await deleteInstaller(ctx, requireAuthz(request), request.query.o, request.params.id);
        return reply.code(204).send();
      },
    );
  });
}
