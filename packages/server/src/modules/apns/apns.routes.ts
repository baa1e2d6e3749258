import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APNS_FILE_BYTES_MAX,
  ZApnsSettings,
  ZCreateApnsCsrBody,
  ZUploadApnsCertificateBody,
} from '@patchwell/core/apns/apns.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import {
  createApnsCsr,
  deleteApnsSettings,
  getApnsCsrPem,
  getApnsSettings,
  uploadApnsCertificate,
} from './apns.service';

const tags = ['apns'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const RIGHT =
  'Organization.manage and the view-configurations feature (`configurations_routes`; 404 without it, as the page).';

/** The zone's APNS certificate for macOS device management (`/api/apns…`). */
export async function apnsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const common = { config: { access: 'session' as const } };

  app.get(
    '/api/apns',
    {
      ...common,
      schema: {
        tags,
        summary: 'The zone’s APNS settings',
        description: `${RIGHT} The pending signing request and the current push certificate (subject, topic, serial, issuer, validity; \`expiring_soon\` within 30 days of its end).`,
        security,
        querystring: ZZoneQuery,
        response: { 200: ZApnsSettings, ...errors },
      },
    },
    async (request) => getApnsSettings(ctx, requireAuthz(request), request.query.o),
  );

  app.post(
    '/api/apns/csr',
    {
      ...common,
      schema: {
        tags,
        summary: 'Generate a certificate signing request',
        description:
          `${RIGHT} A PKCS#10 request (PEM) to upload to Apple’s Push Certificates Portal. Its key is kept here, encrypted: ` +
          'the current certificate’s key when there is one (a renewal keeps the key) unless `new_key`, else a new RSA 2048 key. ' +
          'It replaces a pending request.',
        security,
        querystring: ZZoneQuery,
        body: ZCreateApnsCsrBody,
        response: { 201: ZApnsSettings, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createApnsCsr(ctx, requireAuthz(request), request.query.o, request.body)),
  );

  app.get(
    '/api/apns/csr.pem',
    {
      ...common,
      schema: {
        tags,
        summary: 'Download the pending signing request',
        description: `${RIGHT} The request as a PEM file; 404 when none is pending.`,
        security,
        querystring: ZZoneQuery,
        response: { 200: z.string().describe('application/pkcs10'), ...errors },
      },
    },
    async (request, reply) => {
      const pem = await getApnsCsrPem(ctx, requireAuthz(request), request.query.o);
      return reply
        .type('application/pkcs10')
        .header('content-disposition', 'attachment; filename="patchwell-apns.csr"')
        .send(pem);
    },
  );

  app.put(
    '/api/apns/certificate',
    {
      ...common,
      bodyLimit: APNS_FILE_BYTES_MAX * 2,
      schema: {
        tags,
        summary: 'Upload (or renew) the Apple push certificate',
        description:
          `${RIGHT} The file whole (at most 64 KB): \`pem\` text, or \`der\` / \`pkcs12\` bytes in base64 with the PKCS#12 password. ` +
          '400 when it is not a certificate, the password is wrong, its subject has no `com.apple.mgmt.` topic (UID), it has expired, ' +
          'or it does not match the key of the request generated here. A renewal replaces the certificate and keeps its topic and key.',
        security,
        querystring: ZZoneQuery,
        body: ZUploadApnsCertificateBody,
        response: { 200: ZApnsSettings, ...errors },
      },
    },
    async (request) => uploadApnsCertificate(ctx, requireAuthz(request), request.query.o, request.body),
  );

  app.delete(
    '/api/apns',
    {
      ...common,
      schema: {
        tags,
        summary: 'Remove the APNS certificate and request',
        description: `${RIGHT} Removes the certificate, the pending request and their keys.`,
        security,
        querystring: ZZoneQuery,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteApnsSettings(ctx, requireAuthz(request), request.query.o);
      return reply.code(204).send();
    },
  );
}
