import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import {
  ZBatch,
  ZBatchAcceptResult,
  ZBatchIssueList,
  ZBatchIssuesQuery,
  ZBatchList,
  ZBatchListQuery,
  ZBatchPageQuery,
  ZBatchParams,
  ZBatchSolutionList,
  ZBatchUnknownHostList,
  ZBatchUploadQuery,
  ZBatchVulnerabilityList,
  ZOrgParams,
  ZOrgTypeParams,
} from '@patchwell/core/remediation/batches.schema';
import {
  BATCH_UPLOAD_MAX_BYTES,
  BATCH_UPLOAD_MAX_ROWS,
  ZScannerFormatList,
} from '@patchwell/core/remediation/scanners.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import { requireAuthz } from '../../../http/authz';
import { csvCell } from '../../../http/csv';
import { firstFilePart, registerSingleFileUploads } from '../../../http/uploads';
import { appError } from '../../../domain/errors';
import {
  listBatchIssues,
  listBatchSolutions,
  listBatchUnknownHosts,
  listBatchVulnerabilities,
} from './batch-views.service';
import {
  acceptBatch,
  exportBatchCsv,
  getBatch,
  listBatches,
  listScannerFormats,
  rejectBatch,
  uploadBatch,
  type BatchContext,
  type UploadedFile,
} from './batches.service';
import type { CsvFindingRow } from './batch-findings.store';

const tags = ['remediation'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const MIB = 1024 * 1024;

const tooLarge = () =>
  appError('batches.too_large', {
    wording: { detail: `The file is larger than ${BATCH_UPLOAD_MAX_BYTES / MIB} MiB. Split it into smaller files.` },
  });

/** The request's first file part, streamed into the parser (never buffered whole). */
async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  const part = await firstFilePart(request, {
    notMultipart: 'batches.not_multipart',
    noFile: 'batches.no_file',
    tooLarge,
  });
  return {
    filename: part.filename,
    mimetype: part.mimetype,
    upload: { stream: part.file, isTruncated: () => part.file.truncated, tooLarge },
  };
}

/** Columns of a batch's CSV, in order: the scanner's row, then what matching made of it. */
const CSV_COLUMNS: [string, (r: CsvFindingRow) => unknown][] = [
  ['Line', (r) => r.line],
  ['Host', (r) => r.hostname],
  ['FQDN', (r) => r.fqdn],
  ['IP addresses', (r) => r.ip_addrs],
  ['OS', (r) => r.os],
  ['CVE', (r) => r.cve],
  ['Severity', (r) => r.severity],
  ['Scanner severity', (r) => r.severity_raw],
  ['CVSS', (r) => (r.cvss === null ? null : Math.round(Number(r.cvss) * 10) / 10)],
  ['Title', (r) => r.title],
  ['Device ID', (r) => r.device_id],
  ['Device', (r) => r.device_hostname],
  ['Matched by', (r) => r.matched_by],
  ['Result', (r) => (r.issue ? 'potential issue' : r.solution_kind ? 'remediation' : null)],
  ['Issue', (r) => r.issue],
  ['Solution kind', (r) => r.solution_kind],
  ['Solution', (r) => r.solution_title],
];

/**
 * Scanner batches (`/api/orgs/{orgId}/tasks/...batches...`). The static `tasks/batches`
 * paths win over the tasks module's `tasks/:taskId` in Fastify's router whatever the order
 * of registration. Multipart parsing is registered for the upload only.
 */
export async function batchesRoutes(root: FastifyInstance, ctx: BatchContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  await root.register(async (scope) => {
    await registerSingleFileUploads(scope, BATCH_UPLOAD_MAX_BYTES);
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/orgs/:orgId/tasks/:type/batches/upload',
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'Upload a scanner’s CSV export as a task batch',
          description:
            'Task.create. multipart/form-data with one CSV file in field `file`; `source` names the scanner ' +
            '(see `.../batches/formats` for the columns each one is read by). At most ' +
            `${BATCH_UPLOAD_MAX_ROWS.toLocaleString('en-US')} data rows and ${BATCH_UPLOAD_MAX_BYTES / MIB} MiB ` +
            '(413 above it). The file name must not contain spaces and may use only letters, digits and _ - . ~. ' +
            'A file that is not UTF-8 CSV, lacks a required column, has too many rows, a cut-off quote, or cells ' +
            'that cannot be read (a formula where a host, IP or CVE belongs) answers 400 naming the line and column, ' +
            'and nothing is stored. Otherwise 202 with the batch `building`: it is matched to the zone’s devices ' +
            'after the answer and becomes `ready` (awaiting approval) or `error`.',
          security,
          consumes: ['multipart/form-data'],
          params: ZOrgTypeParams,
          querystring: ZBatchUploadQuery,
          response: { 202: ZBatch, 413: ZApiError, 415: ZApiError, ...errors },
        },
      },
      async (request, reply) => {
        // The build starts once this answer is out (or the client is gone).
        const answered = new Promise((resolve) => reply.raw.once('close', resolve));
        const batch = await uploadBatch(
          ctx,
          requireAuthz(request),
          request.params,
          request.query,
          () => readUpload(request),
          answered,
        );
        return reply.code(202).send(batch);
      },
    );
  });

  app.get(
    '/api/orgs/:orgId/tasks/:type/batches/formats',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Scanner CSV formats a batch can be uploaded in',
        description:
          'Task.read. Each provider (generic, qualys, tenable, crowd-strike, rapid7) with the columns read from its ' +
          'export: found by header name or alias anywhere in the header line (which may follow a few preamble ' +
          'lines), other columns ignored; a short example; the row and size limits.',
        security,
        params: ZOrgTypeParams,
        querystring: ZZoneQuery,
        response: { 200: ZScannerFormatList, ...errors },
      },
    },
    async (request) => listScannerFormats(ctx, requireAuthz(request), request.params.orgId, request.query.o),
  );

  app.get(
    '/api/orgs/:orgId/tasks/batches',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Task batches of the zone',
        description:
          'Task.read. Newest first; `status:not_in` (comma-separated, the console leaves out `approved`), ' +
          '`type:equals`, `page` (zero-based) and `limit`.',
        security,
        params: ZOrgParams,
        querystring: ZBatchListQuery,
        response: { 200: ZBatchList, ...errors },
      },
    },
    async (request) => listBatches(ctx, requireAuthz(request), request.params.orgId, request.query),
  );

  app.get(
    '/api/orgs/:orgId/tasks/batches/:batchId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A task batch',
        description: 'Task.read. Another zone’s batch answers 404.',
        security,
        params: ZBatchParams,
        querystring: ZZoneQuery,
        response: { 200: ZBatch, ...errors },
      },
    },
    async (request) => getBatch(ctx, requireAuthz(request), request.params, request.query.o),
  );

  app.get(
    '/api/orgs/:orgId/tasks/batches/:batchId/issues',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Potential issues of a batch',
        description:
          'Task.read. The file’s host × CVE rows that did not become a remediation, in file order: ' +
          '`unknown_host`, `duplicate_host`, `unknown_cve`, `cve_not_applicable`, `unsupported_host` ' +
          '(`issue` filters by one).',
        security,
        params: ZBatchParams,
        querystring: ZBatchIssuesQuery,
        response: { 200: ZBatchIssueList, ...errors },
      },
    },
    async (request) => listBatchIssues(ctx, requireAuthz(request), request.params, request.query),
  );

  app.get(
    '/api/orgs/:orgId/tasks/batches/:batchId/vulnerabilities',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'CVEs of a batch',
        description: 'Task.read. Worst first, with the devices the scanner names and the solutions fixing each.',
        security,
        params: ZBatchParams,
        querystring: ZBatchPageQuery,
        response: { 200: ZBatchVulnerabilityList, ...errors },
      },
    },
    async (request) => listBatchVulnerabilities(ctx, requireAuthz(request), request.params, request.query),
  );

  app.get(
    '/api/orgs/:orgId/tasks/batches/:batchId/solutions',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Solutions of a batch',
        description:
          'Task.read. One per patch to install now (by name) and per worklet to run, over its devices; its ' +
          'severity is the worst of its CVEs. Accepting the batch makes each a task.',
        security,
        params: ZBatchParams,
        querystring: ZBatchPageQuery,
        response: { 200: ZBatchSolutionList, ...errors },
      },
    },
    async (request) => listBatchSolutions(ctx, requireAuthz(request), request.params, request.query),
  );

  app.get(
    '/api/orgs/:orgId/tasks/batches/:batchId/unknown-hosts',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Hosts of a batch with no device in the zone',
        description: 'Task.read. By host name, with their addresses, OS and CVEs (install the agent on them).',
        security,
        params: ZBatchParams,
        querystring: ZBatchPageQuery,
        response: { 200: ZBatchUnknownHostList, ...errors },
      },
    },
    async (request) => listBatchUnknownHosts(ctx, requireAuthz(request), request.params, request.query),
  );

  app.post(
    '/api/orgs/:orgId/tasks/batches/:batchId/accept',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Accept a batch: create its tasks',
        description:
          'Task.modify. Only a `ready` batch (409 otherwise): it becomes `approved`, each solution a pending ' +
          'task with a job per device, and its CVEs open in the zone’s CVE view, in one transaction.',
        security,
        params: ZBatchParams,
        querystring: ZZoneQuery,
        response: { 200: ZBatchAcceptResult, 409: ZApiError, ...errors },
      },
    },
    async (request) => acceptBatch(ctx, requireAuthz(request), request.params, request.query.o),
  );

  app.post(
    '/api/orgs/:orgId/tasks/batches/:batchId/reject',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Reject a batch',
        description:
          'Task.modify. From `ready` or `error` (409 otherwise). Final: running it later needs the file ' +
          'uploaded again.',
        security,
        params: ZBatchParams,
        querystring: ZZoneQuery,
        response: { 200: ZBatch, 409: ZApiError, ...errors },
      },
    },
    async (request) => rejectBatch(ctx, requireAuthz(request), request.params, request.query.o),
  );

  app.get(
    '/api/orgs/:orgId/tasks/batches/:batchId/csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Download a batch’s processed rows as CSV',
        description:
          'Task.read. Each host × CVE of the file with its device, how it matched, and its solution or ' +
          "potential issue. 409 while the batch is building. Formula-like cells are prefixed with `'`.",
        security,
        params: ZBatchParams,
        querystring: ZZoneQuery,
        response: { 200: z.any(), 409: ZApiError, ...errors },
      },
    },
    async (request, reply) => {
      const { fileName, pages } = await exportBatchCsv(ctx, requireAuthz(request), request.params, request.query.o);
      const csv = stringify({ header: true, columns: CSV_COLUMNS.map(([header]) => header) });
      void (async () => {
        try {
          for await (const page of pages) {
            for (const row of page) {
              if (!csv.write(CSV_COLUMNS.map(([, value]) => csvCell(value(row))))) {
                await new Promise((resolve) => csv.once('drain', resolve));
              }
            }
          }
          csv.end();
        } catch (err) {
          request.log.error({ err }, 'batch CSV export failed');
          csv.destroy(err as Error);
        }
      })();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(csv);
    },
  );
}
