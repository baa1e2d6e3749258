import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SAML_RESPONSE_MAX_CHARS,
  ZIsSamlQuery,
  ZIsSamlResult,
  ZSamlAcsBody,
  ZSamlConnectionParams,
  ZSamlLoginQuery,
} from '@patchwell/core/auth/saml-signin.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { skipAuthorization } from '../../http/authz';
import { linkOrigin } from '../../http/link-origin';
import { notFound } from '../../domain/errors';
import { readSessionToken, setSessionCookie } from '../auth/cookie';
import { consumeSamlResponse } from './saml-acs.service';
import { isSaml, startSamlLogin } from './saml-signin.service';

const tags = ['saml'];
/** The form the IdP posts: the base64 response plus RelayState and the encoding's overhead. */
const ACS_BODY_LIMIT = SAML_RESPONSE_MAX_CHARS * 2 + 4096;
const ZRedirect = z.void().describe('302 with Location');

/** SAML sign-in: the login page's check, the redirect to the IdP, and the ACS. */
export async function samlSigninRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  await root.register(async (scope) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    // Only these routes read HTML form posts (the HTTP-POST binding).
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get(
      '/api/user/issaml',
      {
        config: { access: 'public' },
        logLevel: 'warn',
        schema: {
          tags,
          summary: 'Whether an e-mail address signs in through its identity provider (public)',
          description:
            'True, with the address to send the browser to, when the domain is verified by an account and ' +
            'linked to one of its SAML connections; otherwise `{ saml: false, redirect: null }`. The same shape for ' +
            'every address, and nothing about users. Counted per client address (429 `auth.rate_limited`).',
          querystring: ZIsSamlQuery,
          response: { 200: ZIsSamlResult, 400: ZApiError, 429: ZApiError },
        },
      },
      async (request) => {
        skipAuthorization(request, 'skipauth: public pre-sign-in check that reveals only what a domain says');
        return isSaml(ctx, request.query, request.ip);
      },
    );

    app.get(
      '/api/saml/:uuid/login',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Start a SAML sign-in: redirect to the identity provider (public)',
          description:
            'Records an AuthnRequest (valid 10 minutes, answered once) and answers 302 to the IdP’s sign-in URL ' +
            '(HTTP-Redirect binding). `redirect` (a console path) and `o` say where the console goes afterwards. ' +
            '404 for an unknown connection.',
          params: ZSamlConnectionParams,
          querystring: ZSamlLoginQuery,
          response: { 302: ZRedirect, 400: ZApiError, 404: ZApiError },
        },
      },
      async (request, reply) => {
        skipAuthorization(request, 'skipauth: public start of a sign-in');
        const origin = linkOrigin(request, ctx.config);
        if (!origin) throw notFound();
        const location = await startSamlLogin(ctx, request.params.uuid, request.query, origin);
        return reply.redirect(location, 302);
      },
    );

    app.post(
      '/api/saml/:uuid/acs',
      {
        config: { access: 'public', crossSitePost: true },
        bodyLimit: ACS_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Assertion Consumer Service: the identity provider posts its response here (public)',
          description:
            'Form-encoded `SAMLResponse` (HTTP-POST binding). A valid response signs the user in (Set-Cookie) and ' +
            'answers 302 to the console; any refusal answers 302 to `/console/login?err=saml_failed`, its precise ' +
            'reason only in the server log and the activity log. 413 past the body limit.',
          consumes: ['application/x-www-form-urlencoded'],
          params: ZSamlConnectionParams,
          body: ZSamlAcsBody,
          response: { 302: ZRedirect, 400: ZApiError, 413: ZApiError },
        },
      },
      async (request, reply) => {
        skipAuthorization(request, 'skipauth: the signed response is the proof of identity');
        const outcome = await consumeSamlResponse(ctx, request.params.uuid, request.body.SAMLResponse, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          previousToken: readSessionToken(request, ctx.config),
          origin: linkOrigin(request, ctx.config),
        });
        if (outcome.session) setSessionCookie(reply, ctx.config, outcome.session.token);
        return reply.redirect(outcome.location, 302);
      },
    );
  });
}
