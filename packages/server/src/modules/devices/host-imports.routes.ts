import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HOST_IMPORT_MAX_BYTES,
  HOST_IMPORT_MAX_ROWS,
  ZHostImportIdParams,
  ZHostImportList,
  ZHostImportQuery,
  ZHostImportResult,
  ZListHostImportsQuery,
} from '@patchwell/core/devices/host-imports.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { AppError } from '../../domain/errors';
import { firstFilePart, readWholeFile, registerSingleFileUploads } from '../../http/uploads';
import { importHosts, listHostImports, removeHostImport } from './host-imports.service';

const tags = ['devices'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values']);

const tooLarge = () => new AppError('host_imports.too_large');

/**
 * The uploaded file's bytes: the request's first file part, at most HOST_IMPORT_MAX_BYTES,
 * sent as `text/csv` or named `*.csv` (browsers on Windows send `.csv` as an Excel type).
 */
async function readCsvUpload(request: FastifyRequest): Promise<Buffer> {
  const part = await firstFilePart(request, {
    notMultipart: 'host_imports.not_multipart',
    noFile: 'host_imports.no_file',
    tooLarge,
  });
  const file = await readWholeFile(part, { tooLarge });
  const isCsv = CSV_TYPES.has(part.mimetype.toLowerCase()) || /\.csv$/i.test(part.filename);
  if (!isCsv) {
    throw new AppError('host_imports.not_csv');
  }
  return file;
}

/**
 * The add-devices menu's third-party import (`/api/servers/imports…`). Multipart parsing is
 * registered in this plugin only, with the import's limits; the rest of the API stays JSON.
 */
export async function hostImportsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  await root.register(async (scope) => {
    await registerSingleFileUploads(scope, HOST_IMPORT_MAX_BYTES);
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/servers/imports',
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'Import hosts from a CSV file (third-party import)',
          description:
            'Endpoint.add. multipart/form-data with one CSV file (≤ 1 MiB, ≤ ' +
            `${HOST_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows; columns by header: hostname, ip, os, group, ` +
            'tags, serial, notes, with common aliases). `dry_run=true` answers each row’s result without writing; ' +
            'otherwise the `new` rows are written in one transaction (201; 200 when none is new), and a file ' +
            'whose every row has errors answers 400 with each row’s errors. 413 for a larger file, 415 for a non-CSV one.',
          security,
          consumes: ['multipart/form-data'],
          querystring: ZHostImportQuery,
          response: { 200: ZHostImportResult, 201: ZHostImportResult, 413: ZApiError, 415: ZApiError, ...errors },
        },
      },
      async (request, reply) => {
        const result = await importHosts(ctx, requireAuthz(request), request.query, () => readCsvUpload(request));
        return reply.code(result.summary.imported > 0 ? 201 : 200).send(result);
      },
    );

    app.get(
      '/api/servers/imports',
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'Imported hosts',
          description: 'Endpoint.read. Newest first; `status` awaiting_agent or enrolled; `search` in the host name.',
          security,
          querystring: ZListHostImportsQuery,
          response: { 200: ZHostImportList, ...errors },
        },
      },
      async (request) => listHostImports(ctx, requireAuthz(request), request.query),
    );

    app.delete(
      '/api/servers/imports/:id',
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'Remove an imported host awaiting its agent',
          description: 'Endpoint.add. 409 once its agent has enrolled (remove the device instead).',
          security,
          querystring: ZZoneQuery,
          params: ZHostImportIdParams,
          response: { 204: z.void(), 409: ZApiError, ...errors },
        },
      },
      async (request, reply) => {
        await removeHostImport(ctx, requireAuthz(request), request.query.o, request.params.id);
        return reply.code(204).send();
      },
    );
  });
}
