import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { SAML_SIGNIN_ERROR } from '@patchwell/core/auth/saml-signin.schema';
import { isValidRedirect } from '@patchwell/core/rules/redirect';
import type { AppContext } from '../../context';
import { accountHasFeature } from '../zones/entitlements.service';
import { logAccountActivity } from '../activity/activity.service';
import { createSession, destroySession, type SessionUser } from '../auth/sessions.service';
import { admitUser } from './saml-provisioning';
import { decodeSamlResponse, SamlRefusal, validateSamlResponse } from './saml-response';
import { acsUrl, spEntityId } from '../saml-connections/sp-urls';
import {
  consumeRequest,
  findConnectionByUuid,
  isDomainOfConnection,
  recordAssertionId,
  upsertUserLink,
  type SamlConnectionRow,
} from './saml-signin.store';

/** Clock difference tolerated between the IdP and us. */
export const SAML_CLOCK_SKEW_MS = 2 * ONE_MINUTE_MS;

/** Where a refused sign-in lands: the login page with a generic error. */
export const SAML_REFUSED_LOCATION = `/console/login?err=${SAML_SIGNIN_ERROR}`;

export type AcsClient = {
  ip: string;
  userAgent: string | undefined;
  previousToken: string | undefined;
  /** The public origin (http/link-origin.ts); null when this request's Host cannot be trusted. */
  origin: string | null;
};

/** The outcome: where the browser goes, and the new session when signed in. */
export type AcsOutcome = { location: string; session?: { token: string; user: SessionUser } };

function consolePath(redirectPath: string | null, zoneId: number | null): string {
  if (redirectPath && isValidRedirect(redirectPath)) {
    return redirectPath.startsWith('/console/') ? redirectPath : `/console${redirectPath}`;
  }
  return `/console/dashboard${zoneId ? `?o=${zoneId}` : ''}`;
}

async function logRefusal(ctx: AppContext, connection: SamlConnectionRow, reason: string, clientAddress: string) {
  await logAccountActivity(
    ctx,
    { userId: null, via: 'session', clientAddress },
    connection.accountId,
    'auth.signin_failed',
    { type: 'saml_connection', id: connection.uuid, name: connection.name },
    { method: 'saml', reason },
  );
}

/**
 * `POST /api/saml/{uuid}/acs`: validates the IdP's response (saml-response.ts), then, in one
 * transaction, consumes the AuthnRequest it answers (of this connection, unexpired, once),
 * records the assertion ID until it expires (a replay is refused), checks the address's
 * domain and admits the user (saml-provisioning.ts). Then a session starts exactly as a
 * password sign-in's does. Any refusal is logged with its precise reason (never the XML)
 * and answered with the same redirect to the login page.
 */
export async function consumeSamlResponse(
  ctx: AppContext,
  connectionUuid: string,
  samlResponse: string,
  client: AcsClient,
): Promise<AcsOutcome> {
  const connection = await findConnectionByUuid(ctx.db, connectionUuid);
  if (!connection) {
    ctx.logger.warn({ connectionUuid }, 'SAML response refused: unknown connection');
    return { location: SAML_REFUSED_LOCATION };
  }
  const started = performance.now();
  try {
    if (!client.origin) throw new SamlRefusal('no trusted public origin (set PATCHWELL_PUBLIC_URL)');
    if (!(await accountHasFeature(ctx, connection.accountId, 'sso'))) {
      throw new SamlRefusal('the account’s plan no longer includes single sign-on');
    }
    const now = ctx.clock.now();
    const response = validateSamlResponse(decodeSamlResponse(samlResponse), {
      idpEntityId: connection.idpEntityId,
      certificates: connection.idpCertificates,
      spEntityId: spEntityId(client.origin, connection.uuid),
      acsUrl: acsUrl(client.origin, connection.uuid),
      now,
      skewMs: SAML_CLOCK_SKEW_MS,
    });
    const domain = response.nameId.slice(response.nameId.lastIndexOf('@') + 1);

    const admitted = await ctx.db.transaction(async (tx) => {
      const request = await consumeRequest(tx, response.inResponseTo, connection.id, now);
      if (!request) throw new SamlRefusal('InResponseTo is no open request of this connection');
      const fresh = await recordAssertionId(tx, {
        connectionId: connection.id,
        assertionId: response.assertionId,
        expiresAt: response.expiresAt,
      });
      if (!fresh) throw new SamlRefusal('assertion ID already used (replay)');
      if (!(await isDomainOfConnection(tx, connection, domain))) {
        throw new SamlRefusal('NameID domain is not a verified domain of this connection');
      }
      const { user, created } = await admitUser(tx, connection, response.nameId, response.attributes, now);
      await upsertUserLink(tx, {
        userId: user.id,
        connectionId: connection.id,
        nameId: response.nameId,
        lastSigninAt: now,
        provisioned: created,
      });
      const actor = { userId: user.id, via: 'session' as const, clientAddress: client.ip };
      const object = { type: 'user', id: user.id, name: user.email };
      if (created) {
        await logAccountActivity(
          { db: tx, clock: ctx.clock },
          actor,
          connection.accountId,
          'users.saml_provisioned',
          object,
          {
            connection: connection.name,
          },
        );
      }
      await logAccountActivity({ db: tx, clock: ctx.clock }, actor, connection.accountId, 'auth.signin', object, {
        method: 'saml',
        connection: connection.name,
      });
      return { user, request };
    });

    if (client.previousToken) await destroySession(ctx, client.previousToken);
    const session = await createSession(
      ctx,
      {
        id: admitted.user.id,
        accountId: admitted.user.accountId,
        isGlobalAdmin: admitted.user.accountRbacRole === 'global-admin',
      },
      { ip: client.ip, userAgent: client.userAgent },
    );
    ctx.logger.info(
      { userId: admitted.user.id, connectionUuid, acsMs: Math.round(performance.now() - started) },
      'signed in through SAML',
    );
    return {
      location: consolePath(admitted.request.redirectPath, admitted.request.organizationId),
      session,
    };
  } catch (error) {
    if (!(error instanceof SamlRefusal)) throw error;
    ctx.logger.warn({ connectionUuid, reason: error.reason }, 'SAML response refused');
    await logRefusal(ctx, connection, error.reason, client.ip);
    return { location: SAML_REFUSED_LOCATION };
  }
}
