import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { isValidRedirect } from '@patchwell/core/rules/redirect';
import type { IsSamlQuery, IsSamlResult, SamlLoginQuery } from '@patchwell/core/auth/saml-signin.schema';
import type { AppContext } from '../../context';
import { accountHasFeature, requireAccountFeature } from '../zones/entitlements.service';
import { notFound } from '../../domain/errors';
import { acsUrl, spEntityId } from '../saml-connections/sp-urls';
import { takeAttempts, type RateLimit } from '../auth/rate-limits.service';
import {
  deleteExpired,
  findConnectionByUuid,
  findConnectionOfVerifiedDomain,
  findUserLink,
  insertRequest,
} from './saml-signin.store';

/** How long an AuthnRequest can be answered. */
export const SAML_REQUEST_TTL_MS = 10 * ONE_MINUTE_MS;

/**
 * The login page asks on each sign-in: counted per address like sign-in, in its own key
 * space (`issaml:` keys) so these answers never eat into the password sign-in budget.
 */
export const ISSAML_RATE_LIMIT = {
  kind: 'ip',
  limit: 60,
  windowMinutes: 15,
  error: 'auth.sign_in_rate_limited',
} as const satisfies RateLimit;

/** The address the console sends the browser to, to sign in through a connection. */
export function samlLoginPath(connectionUuid: string, zoneId?: number): string {
  return `/api/saml/${connectionUuid}/login${zoneId ? `?o=${zoneId}` : ''}`;
}

/**
 * `GET /api/user/issaml`: whether the address's domain is verified by an account and linked
 * to one of its connections. The answer has one shape for every address, and it says only
 * what the domain says (never whether the user exists).
 * @throws AppError 429 `auth.rate_limited`.
 */
export async function isSaml(ctx: AppContext, query: IsSamlQuery, clientAddress: string): Promise<IsSamlResult> {
  await takeAttempts(ctx, [{ rule: ISSAML_RATE_LIMIT, key: `issaml:${clientAddress}` }], ctx.clock.now());
  const email = query.email.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const domain = at > 0 ? email.slice(at + 1).replace(/\.$/, '') : '';
  const connection = domain ? await findConnectionOfVerifiedDomain(ctx.db, domain) : undefined;
  // An account that left the plan keeps its connection, unused: its users sign in with passwords.
  if (!connection || !(await accountHasFeature(ctx, connection.accountId, 'sso')))
    return { saml: false, redirect: null };
  return { saml: true, redirect: samlLoginPath(connection.uuid, query.o) };
}

/**
 * How a user signs in through SAML, for the zones that require it: through the connection
 * they last signed in with, else the one their address's domain is verified for in their
 * own account. Null when neither exists.
 */
export async function samlLoginFor(
  ctx: AppContext,
  user: { id: number; email: string; accountId: number | null },
): Promise<((zoneId: number) => string) | null> {
  const link = await findUserLink(ctx.db, user.id);
  let uuid = link?.connectionUuid;
  if (!uuid) {
    const domain = user.email.slice(user.email.lastIndexOf('@') + 1);
    const connection = await findConnectionOfVerifiedDomain(ctx.db, domain);
    if (connection && connection.accountId === user.accountId) uuid = connection.uuid;
  }
  return uuid ? (zoneId) => samlLoginPath(uuid, zoneId) : null;
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function authnRequestXml(input: { id: string; issuedAt: Date; destination: string; acsUrl: string; issuer: string }) {
  return (
    '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ' +
    'xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Version="2.0" ' +
    `ID="${input.id}" IssueInstant="${input.issuedAt.toISOString()}" ` +
    `Destination="${xmlEscape(input.destination)}" AssertionConsumerServiceURL="${xmlEscape(input.acsUrl)}" ` +
    'ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">' +
    `<saml:Issuer>${xmlEscape(input.issuer)}</saml:Issuer>` +
    '<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" AllowCreate="true"/>' +
    '</samlp:AuthnRequest>'
  );
}

/**
 * `GET /api/saml/{uuid}/login`: records an AuthnRequest (the response must answer it, once,
 * within 10 minutes) and returns the IdP address to redirect to (HTTP-Redirect binding).
 * Where the console goes afterwards is kept in the row; RelayState carries only the
 * request's id, which proves nothing.
 * @throws AppError 404 for an unknown connection; 403 `plans.feature_unavailable` when the
 *   account's plan no longer includes single sign-on.
 */
export async function startSamlLogin(
  ctx: AppContext,
  connectionUuid: string,
  query: SamlLoginQuery,
  origin: string,
): Promise<string> {
  const connection = await findConnectionByUuid(ctx.db, connectionUuid);
  if (!connection) throw notFound();
  await requireAccountFeature(ctx, connection.accountId, 'sso');
  const now = ctx.clock.now();
  await deleteExpired(ctx.db, now);
  const id = `_${randomBytes(20).toString('hex')}`;
  await insertRequest(ctx.db, {
    id,
    connectionId: connection.id,
    redirectPath: isValidRedirect(query.redirect) ? query.redirect : null,
    organizationId: query.o ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SAML_REQUEST_TTL_MS),
  });
  const xml = authnRequestXml({
    id,
    issuedAt: now,
    destination: connection.idpSsoUrl,
    acsUrl: acsUrl(origin, connection.uuid),
    issuer: spEntityId(origin, connection.uuid),
  });
  const target = new URL(connection.idpSsoUrl);
  target.searchParams.set('SAMLRequest', deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'));
  target.searchParams.set('RelayState', id);
  return target.toString();
}
