import { randomBytes } from 'node:crypto';
import {
  DOMAIN_TEXTS,
  DOMAIN_TXT_PREFIX,
  DOMAINS_PER_ACCOUNT_MAX,
  type AccountDomain,
  type AccountDomainList,
  type AddDomainBody,
  type DomainVerifyResult,
} from '@patchwell/core/sso/domains.schema';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import type { Authz } from '../../domain/authz';
import { AppError, notFound, validationError } from '../../domain/errors';
import { logAccountActivity } from '../activity/activity.service';
import type { Exec } from '../commands/commands.store';
import { requireAccount } from '../zones/zone-access.service';
import { requireAccountFeature } from '../zones/entitlements.service';
import { checkTxtRecord } from './dns-check';
import {
  countDomains,
  deleteDomainRow,
  findDomain,
  findDomainsByName,
  findVerifiedElsewhere,
  insertDomains,
  listDomains,
  recordCheck,
  releaseConnectionDomains,
  setDomainsConnection,
  type DomainWithConnection,
} from './domains.store';

/**
 * An account's e-mail domains (Global setup › Domains), for its global administrators
 * (Saml.read to see, Saml.manage to change). Connections name domains too: they go through
 * {@link claimConnectionDomains}, so this module alone writes `account_domains`.
 */

const newToken = () => randomBytes(16).toString('hex');
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const objectOf = (row: { id: number; name: string }) => ({ type: 'domain', id: row.id, name: row.name });

/** The TXT record that proves a domain. */
export const txtRecordOf = (token: string) => `${DOMAIN_TXT_PREFIX}${token}`;

export function toDomain(row: DomainWithConnection): AccountDomain {
  return {
    id: row.uuid,
    name: row.name,
    status: row.status,
    verification_record: { type: 'TXT', host: row.name, value: txtRecordOf(row.verificationToken) },
    connection: row.connectionUuid && row.connectionName ? { id: row.connectionUuid, name: row.connectionName } : null,
    created_at: row.createdAt.toISOString(),
    last_checked_at: iso(row.lastCheckedAt),
    verified_at: iso(row.verifiedAt),
  };
}

/** `GET /api/accounts/{accountId}/domains`. */
export async function listAccountDomains(ctx: AppContext, authz: Authz, accountId: number): Promise<AccountDomainList> {
  requireAccount(authz, accountId, 'Saml', 'read');
  const rows = await listDomains(ctx.db, accountId);
  return { data: rows.map(toDomain), size: rows.length };
}

async function domainOr404(db: Exec, accountId: number, uuid: string): Promise<DomainWithConnection> {
  const row = await findDomain(db, accountId, uuid);
  if (!row) throw notFound();
  return row;
}

/** `POST /api/accounts/{accountId}/domains`: adds the domain pending, with a new token. */
export async function addDomain(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  body: AddDomainBody,
): Promise<AccountDomain> {
  requireAccount(authz, accountId, 'Saml', 'manage');
  await requireAccountFeature(ctx, accountId, 'sso');
  const now = ctx.clock.now();
  let uuid: string;
  try {
    uuid = await ctx.db.transaction(async (tx) => {
      if ((await findDomainsByName(tx, accountId, [body.name])).length)
        throw new AppError('domains.in_use_for_account');
      if ((await findVerifiedElsewhere(tx, accountId, [body.name])).length) {
        throw new AppError('domains.in_use_by_other_account');
      }
      if ((await countDomains(tx, accountId)) >= DOMAINS_PER_ACCOUNT_MAX) throw new AppError('domains.too_many');
      const [row] = await insertDomains(tx, [
        { accountId, name: body.name, verificationToken: newToken(), createdAt: now },
      ]);
      await logAccountActivity(ctx, authz, accountId, 'domain.create', objectOf(row!), {}, tx);
      return row!.uuid;
    });
  } catch (err) {
    // Two requests adding the same name at once: the loser gets the same answer as a later one.
    if (isUniqueViolation(err, 'account_domains_account_name_unique')) throw new AppError('domains.in_use_for_account');
    throw err;
  }
  return toDomain(await domainOr404(ctx.db, accountId, uuid));
}

/** `DELETE /api/accounts/{accountId}/domains/{domainId}`: refused while a connection uses it. */
export async function deleteDomain(ctx: AppContext, authz: Authz, accountId: number, uuid: string): Promise<void> {
  requireAccount(authz, accountId, 'Saml', 'manage');
  await ctx.db.transaction(async (tx) => {
    const row = await domainOr404(tx, accountId, uuid);
    if (row.connectionName) {
      throw new AppError('domains.used_by_connection', { wording: { connection: row.connectionName } });
    }
    await deleteDomainRow(tx, row.id);
    await logAccountActivity(ctx, authz, accountId, 'domain.delete', objectOf(row), { status: row.status }, tx);
  });
}

/**
 * `POST /api/accounts/{accountId}/domains/{domainId}/verify`: asks DNS for the TXT record.
 * Found: the domain is verified. Not found, or DNS did not answer: it stays pending, the
 * check is recorded, and the message says why (never a 5xx: DNS is someone else's server).
 */
export async function verifyDomain(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  uuid: string,
): Promise<DomainVerifyResult> {
  requireAccount(authz, accountId, 'Saml', 'manage');
  await requireAccountFeature(ctx, accountId, 'sso');
  const before = await domainOr404(ctx.db, accountId, uuid);
  if (before.status === 'verified') {
    return { domain: toDomain(before), verified: true, message: DOMAIN_TEXTS.verified };
  }
  const record = txtRecordOf(before.verificationToken);
  // Outside any transaction: a DNS answer may take seconds, and PGlite has one connection.
  const check = await checkTxtRecord(ctx.config, before.name, record);
  const found = check.kind === 'found';
  const now = ctx.clock.now();
  let taken = false;
  try {
    await ctx.db.transaction(async (tx) => {
      if (found && (await findVerifiedElsewhere(tx, accountId, [before.name])).length) {
        taken = true;
        await recordCheck(tx, before.id, now, false);
      } else {
        await recordCheck(tx, before.id, now, found);
      }
      const outcome = taken ? 'taken' : found ? 'verified' : check.kind;
      await logAccountActivity(ctx, authz, accountId, 'domain.verify', objectOf(before), { outcome }, tx);
    });
  } catch (err) {
    // Another account verified the same name between the check and the update.
    if (!isUniqueViolation(err, 'account_domains_verified_name_unique')) throw err;
    taken = true;
  }
  if (taken) throw new AppError('domains.in_use_by_other_account');
  const after = await domainOr404(ctx.db, accountId, uuid);
  const message =
    check.kind === 'found'
      ? DOMAIN_TEXTS.verified
      : check.kind === 'missing'
        ? DOMAIN_TEXTS.notFoundYet(record)
        : DOMAIN_TEXTS.dnsFailed(check.reason);
  return { domain: toDomain(after), verified: found, message };
}

/** What saving a connection did to the account's domains (for its activity event). */
export type ClaimedDomains = { added: string[]; moved: { name: string; from: string }[]; released: string[] };

/**
 * Puts the domains `names` on the connection in the caller's transaction: a name the account
 * does not have yet is added pending; one on another of its connections moves here; the
 * connection's other domains are released. A name another account verified is refused with
 * the spec's text, on the `domains` field. The caller has checked Saml.manage.
 */
export async function claimConnectionDomains(
  ctx: AppContext,
  authz: Authz,
  tx: Exec,
  accountId: number,
  connection: { id: number; name: string },
  names: string[],
  otherConnectionNames: Map<number, string>,
): Promise<ClaimedDomains> {
  const taken = await findVerifiedElsewhere(tx, accountId, names);
  if (taken.length) throw validationError({ domains: [`${DOMAIN_TEXTS.inUseByOtherAccount} (${taken.join(', ')})`] });
  const existing = await findDomainsByName(tx, accountId, names);
  const known = new Set(existing.map((d) => d.name));
  const addedNames = names.filter((n) => !known.has(n));
  if ((await countDomains(tx, accountId)) + addedNames.length > DOMAINS_PER_ACCOUNT_MAX) {
    throw new AppError('domains.too_many');
  }
  const now = ctx.clock.now();
  const added = await insertDomains(
    tx,
    addedNames.map((name) => ({ accountId, name, verificationToken: newToken(), createdAt: now })),
  );
  for (const row of added) {
    await logAccountActivity(
      ctx,
      authz,
      accountId,
      'domain.create',
      objectOf(row),
      { connection: connection.name },
      tx,
    );
  }
  const moved = existing
    .filter((d) => d.connectionId !== null && d.connectionId !== connection.id)
    .map((d) => ({ name: d.name, from: otherConnectionNames.get(d.connectionId!) ?? String(d.connectionId) }));
  const ids = [...existing.map((d) => d.id), ...added.map((d) => d.id)];
  await setDomainsConnection(tx, accountId, ids, connection.id);
  const released = await releaseConnectionDomains(tx, connection.id, ids);
  return { added: addedNames, moved, released };
}
