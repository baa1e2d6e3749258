import {
  CONNECTION_TEXTS,
  type Connection,
  type ConnectionBody,
  type ConnectionList,
} from '@patchwell/core/sso/connections.schema';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import type { Authz } from '../../domain/authz';
import { AppError, notFound, validationError } from '../../domain/errors';
import { changesOf, logAccountActivity } from '../activity/activity.service';
import type { Exec } from '../commands/commands.store';
import { claimConnectionDomains } from '../domains/domains.service';
import { requireAccount } from '../zones/zone-access.service';
import { requireAccountFeature } from '../zones/entitlements.service';
import {
  deleteConnectionRow,
  findAccountZoneIdsAmong,
  findConnectionByUuid,
  findConnectionDomains,
  findConnectionRow,
  findZoneRoles,
  insertConnection,
  listConnectionRows,
  replaceZoneRoles,
  updateConnection,
  type ConnectionFields,
  type ConnectionRow,
} from './connections.store';
import { certificateInfo, idpFromFields, parseIdpMetadata } from './idp-metadata';
import { spMetadataXml } from './sp-metadata';
import { serviceProviderOf } from './sp-urls';

/**
 * An account's SAML connections (Global setup › Authentication), for its global
 * administrators: Saml.read to see them, Saml.manage to change them. A save checks the IdP
 * description and the zones first, then writes the connection, its zone roles and its
 * domains (through modules/domains) and the activity events in one transaction.
 */

/** The console's public origin, for the SP URLs; null when the server does not know it. */
export type SpBase = string | null;

async function toConnections(db: Exec, rows: ConnectionRow[], spBase: SpBase): Promise<Connection[]> {
  const ids = rows.map((r) => r.id);
  const [domains, pairs] = await Promise.all([findConnectionDomains(db, ids), findZoneRoles(db, ids)]);
  return rows.map((row) => ({
    id: row.uuid,
    name: row.name,
    provision_type: row.provisionType,
    domains: domains
      .filter((d) => d.connectionId === row.id)
      .map((d) => ({ id: d.uuid, name: d.name, status: d.status })),
    metadata_xml: row.idpMetadataXml,
    idp: {
      entity_id: row.idpEntityId,
      sso_url: row.idpSsoUrl,
      certificates: row.idpCertificates.map(certificateInfo),
    },
    default_role_id: row.defaultRoleId,
    zone_roles: pairs
      .filter((p) => p.connectionId === row.id)
      .map((p) => ({ zone_id: p.zoneId, zone_name: p.zoneName, role_id: p.roleId })),
    sp: spBase ? serviceProviderOf(spBase, row.uuid) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}

async function connectionOr404(db: Exec, accountId: number, uuid: string): Promise<ConnectionRow> {
  const row = await findConnectionRow(db, accountId, uuid);
  if (!row) throw notFound();
  return row;
}

/** `GET /api/accounts/{accountId}/connections`. */
export async function listConnections(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  spBase: SpBase,
): Promise<ConnectionList> {
  requireAccount(authz, accountId, 'Saml', 'read');
  const data = await toConnections(ctx.db, await listConnectionRows(ctx.db, accountId), spBase);
  return { data, size: data.length };
}

/** `GET /api/accounts/{accountId}/connections/{connectionId}`. */
export async function getConnection(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  uuid: string,
  spBase: SpBase,
): Promise<Connection> {
  requireAccount(authz, accountId, 'Saml', 'read');
  const [connection] = await toConnections(ctx.db, [await connectionOr404(ctx.db, accountId, uuid)], spBase);
  return connection!;
}

/** The stored fields of `body`, after reading the IdP's metadata or fields and checking the zones (400 otherwise). */
async function fieldsOf(ctx: AppContext, accountId: number, body: ConnectionBody): Promise<ConnectionFields> {
  const result = body.metadata_xml
    ? parseIdpMetadata(body.metadata_xml)
    : idpFromFields({ certificate: body.certificate!, sso_url: body.sso_url!, entity_id: body.entity_id! });
  if (!result.ok) throw validationError({ [result.problem.field]: [result.problem.message] });
  const zoneIds = body.zone_roles.map((p) => p.zone_id);
  const known = new Set(await findAccountZoneIdsAmong(ctx.db, accountId, zoneIds));
  const unknown = body.zone_roles.flatMap((p, i) => (known.has(p.zone_id) ? [] : [i]));
  if (unknown.length) {
    throw validationError(
      Object.fromEntries(unknown.map((i) => [`zone_roles.${i}.zone_id`, [CONNECTION_TEXTS.zoneUnknown]])),
    );
  }
  return {
    name: body.name,
    provisionType: body.provision_type,
    idpMetadataXml: body.metadata_xml,
    idpEntityId: result.idp.entityId,
    idpSsoUrl: result.idp.ssoUrl,
    idpCertificates: result.idp.certificates,
    defaultRoleId: body.default_role_id,
  };
}

const zoneRolesOf = (body: ConnectionBody) => body.zone_roles.map((p) => ({ zoneId: p.zone_id, roleId: p.role_id }));
const objectOf = (row: { id: number; name: string }) => ({ type: 'saml_connection', id: row.id, name: row.name });
/**
 * Runs a save; two saves adding the same new domain at once meet the unique index, and the
 * later one is told the domain is in use rather than getting a 500.
 */
async function savingDomains<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (err) {
    if (isUniqueViolation(err, 'account_domains_account_name_unique')) throw new AppError('domains.in_use_for_account');
    throw err;
  }
}

/** Names of the account's connections by id, to say where a moved domain came from. */
const namesById = (rows: ConnectionRow[]) => new Map(rows.map((r) => [r.id, r.name]));

/** `POST /api/accounts/{accountId}/connections`. */
export async function createConnection(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  body: ConnectionBody,
  spBase: SpBase,
): Promise<Connection> {
  requireAccount(authz, accountId, 'Saml', 'manage');
  await requireAccountFeature(ctx, accountId, 'sso');
  const fields = await fieldsOf(ctx, accountId, body);
  const now = ctx.clock.now();
  const uuid = await savingDomains(() =>
    ctx.db.transaction(async (tx) => {
      const others = namesById(await listConnectionRows(tx, accountId));
      const row = await insertConnection(tx, { ...fields, accountId, createdAt: now, updatedAt: now });
      await replaceZoneRoles(tx, row.id, zoneRolesOf(body));
      const domains = await claimConnectionDomains(ctx, authz, tx, accountId, row, body.domains, others);
      await logAccountActivity(
        ctx,
        authz,
        accountId,
        'saml_connection.create',
        objectOf(row),
        {
          provision_type: body.provision_type,
          idp_entity_id: fields.idpEntityId,
          domains: body.domains,
          moved_domains: domains.moved,
          default_role_id: body.default_role_id,
          zone_roles: body.zone_roles,
        },
        tx,
      );
      return row.uuid;
    }),
  );
  return getConnection(ctx, authz, accountId, uuid, spBase);
}

/** `PUT /api/accounts/{accountId}/connections/{connectionId}`: the whole connection. */
export async function replaceConnection(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  uuid: string,
  body: ConnectionBody,
  spBase: SpBase,
): Promise<Connection> {
  requireAccount(authz, accountId, 'Saml', 'manage');
  await requireAccountFeature(ctx, accountId, 'sso');
  await connectionOr404(ctx.db, accountId, uuid);
  const fields = await fieldsOf(ctx, accountId, body);
  await savingDomains(() =>
    ctx.db.transaction(async (tx) => {
      const before = await connectionOr404(tx, accountId, uuid);
      const others = namesById(await listConnectionRows(tx, accountId));
      await updateConnection(tx, before.id, { ...fields, updatedAt: ctx.clock.now() });
      await replaceZoneRoles(tx, before.id, zoneRolesOf(body));
      const domains = await claimConnectionDomains(
        ctx,
        authz,
        tx,
        accountId,
        { ...before, ...fields },
        body.domains,
        others,
      );
      const changes = changesOf<Record<string, unknown>>(
        {
          name: before.name,
          provision_type: before.provisionType,
          idp_entity_id: before.idpEntityId,
          idp_sso_url: before.idpSsoUrl,
          default_role_id: before.defaultRoleId,
        },
        {
          name: fields.name,
          provision_type: fields.provisionType,
          idp_entity_id: fields.idpEntityId,
          idp_sso_url: fields.idpSsoUrl,
          default_role_id: fields.defaultRoleId,
        },
      );
      await logAccountActivity(
        ctx,
        authz,
        accountId,
        'saml_connection.update',
        objectOf({ id: before.id, name: fields.name }),
        {
          changes,
          certificates_changed: before.idpCertificates.join() !== fields.idpCertificates.join(),
          domains_added: domains.added,
          domains_moved: domains.moved,
          domains_released: domains.released,
          zone_roles: body.zone_roles,
        },
        tx,
      );
    }),
  );
  return getConnection(ctx, authz, accountId, uuid, spBase);
}

/** `DELETE /api/accounts/{accountId}/connections/{connectionId}`: its domains stay on the account, on no connection. */
export async function deleteConnection(ctx: AppContext, authz: Authz, accountId: number, uuid: string): Promise<void> {
  requireAccount(authz, accountId, 'Saml', 'manage');
  await ctx.db.transaction(async (tx) => {
    const row = await connectionOr404(tx, accountId, uuid);
    const domains = (await findConnectionDomains(tx, [row.id])).map((d) => d.name);
    await deleteConnectionRow(tx, row.id);
    await logAccountActivity(ctx, authz, accountId, 'saml_connection.delete', objectOf(row), { domains }, tx);
  });
}

/**
 * `GET /api/saml/{connectionUuid}/metadata` (public: identity providers fetch it): the SP
 * metadata of a connection. 404 for an unknown UUID; 409 when the server's public address
 * is unknown, since an entity ID built from a client's Host header could be anything.
 */
export async function connectionSpMetadata(ctx: AppContext, uuid: string, spBase: SpBase): Promise<string> {
  const row = await findConnectionByUuid(ctx.db, uuid);
  if (!row) throw notFound();
  if (!spBase) throw new AppError('saml.public_url_required');
  return spMetadataXml(spBase, row.uuid);
}
