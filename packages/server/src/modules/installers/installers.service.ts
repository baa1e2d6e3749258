import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { InstallerFile } from '@patchwell/core/policies/policy-configuration.schema';
import type { AppContext } from '../../context';
import { notFound, AppError, validationError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { hasOpenInstallerCommand } from '../commands/commands.service';
import { logActivity } from '../policies/policy-access';
import { requireZone } from '../zones/zone-access.service';
import { requireFeature } from '../zones/entitlements.service';
import { findZone, type ZoneRow } from '../zones/zones.store';
import { copyToZone, discard, installerPath, openStoredFile, receiveFile, storeFile } from './installers.files';
import {
  countZoneRowsOfFile,
  deleteInstallerRow,
  findInstaller,
  findPoliciesUsing,
  insertInstaller,
  type InstallerRow,
} from './installers.store';

/**
 * Installers of required-software policies: uploaded to a zone, referenced from a policy's
 * `configuration.installer`, handed to that zone's devices while they have an install
 * command for it, and removed once no policy uses them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The file part of an upload, as the route hands it over. */
export type InstallerUpload = { filename: string; stream: Readable; isTruncated(): boolean };

export function toInstallerFile(row: InstallerRow): InstallerFile {
  return { id: row.id, name: row.name, size_bytes: row.sizeBytes, sha256: row.sha256 };
}

function sizeText(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return mib >= 1 && Number.isInteger(mib) ? `${mib} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

export function installerTooLarge(limit: number): AppError {
  return new AppError('installers.too_large', { wording: { size: sizeText(limit) } });
}

/** A file name without folders or control characters, at most 255 characters. */
function cleanName(filename: string): string {
  // eslint-disable-next-line no-control-regex
  const base = path.win32.basename(path.posix.basename(filename)).replace(/[\u0000-\u001f\u007f]/g, '');
  return base.trim().slice(0, 255) || 'installer';
}

/**
 * The zone `o` once the caller may create or modify required-software policies there:
 * either lets them attach an installer, so either lets them upload or remove one.
 */
async function requireInstallerZone(ctx: AppContext, authz: Authz, o: number | undefined): Promise<ZoneRow> {
  const zoneId = o ?? authz.actor.onlyZoneId ?? undefined;
  const zone = zoneId === undefined ? undefined : await findZone(ctx.db, zoneId);
  const mayCreate = zone
    ? authz.may({ id: zone.id, accountId: zone.accountId }, 'RequiredSoftwarePolicy', 'create')
    : false;
  return requireZone(ctx, authz, zoneId, 'RequiredSoftwarePolicy', mayCreate ? 'create' : 'modify');
}

/** `POST /api/policies/installers`: stores the upload (hashing it on the way) and its metadata. */
export async function uploadInstaller(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  read: () => Promise<InstallerUpload>,
): Promise<InstallerFile> {
  const zone = await requireInstallerZone(ctx, authz, o);
  requireFeature(ctx, zone, 'software_management');
  const upload = await read();
  const received = await receiveFile(ctx.config, upload.stream);
  // The multipart limit cuts the stream at the limit; a cut file is never kept.
  if (upload.isTruncated() || received.sizeBytes > ctx.config.installerMaxBytes) {
    await discard(received.tempPath);
    throw installerTooLarge(ctx.config.installerMaxBytes);
  }
  if (received.sizeBytes === 0) {
    await discard(received.tempPath);
    throw validationError({ file: ['The file is empty.'] });
  }
  await storeFile(ctx.config, zone.id, received);
  const row = await insertInstaller(ctx.db, {
    id: randomUUID(),
    organizationId: zone.id,
    name: cleanName(upload.filename),
    sizeBytes: received.sizeBytes,
    sha256: received.sha256,
    createdBy: authz.userId,
    createdAt: ctx.clock.now(),
  });
  const object = { type: 'installer', id: row.id, name: row.name };
  await logActivity(ctx, authz, zone.id, 'installer.upload', object, { size_bytes: row.sizeBytes, sha256: row.sha256 });
  return toInstallerFile(row);
}

async function requireInstaller(ctx: AppContext, zoneId: number, id: string): Promise<InstallerRow> {
  const row = await findZoneInstaller(ctx, zoneId, id);
  if (!row) throw notFound();
  return row;
}

/** `GET /api/policies/installers/{id}` (read of required-software policies): the metadata. */
export async function getInstaller(ctx: AppContext, authz: Authz, o: number | undefined, id: string) {
  const zone = await requireZone(ctx, authz, o, 'RequiredSoftwarePolicy', 'read');
  return toInstallerFile(await requireInstaller(ctx, zone.id, id));
}

/** `DELETE /api/policies/installers/{id}`: only when no policy of the zone references it (409). */
export async function deleteInstaller(ctx: AppContext, authz: Authz, o: number | undefined, id: string) {
  const zone = await requireInstallerZone(ctx, authz, o);
  const row = await requireInstaller(ctx, zone.id, id);
  const users = await findPoliciesUsing(ctx.db, zone.id, row.id);
  if (users.length) {
    throw new AppError('installers.in_use', { wording: { policies: users } });
  }
  await deleteInstallerRow(ctx.db, zone.id, row.id);
  if ((await countZoneRowsOfFile(ctx.db, zone.id, row.sha256)) === 0) {
    await discard(installerPath(ctx.config, zone.id, row.sha256));
  }
  await logActivity(ctx, authz, zone.id, 'installer.delete', { type: 'installer', id: row.id, name: row.name });
}

/**
 * A required-software configuration's installer must be one uploaded to the policy's zone,
 * with the size and checksum stored for it (the agent checks the download against them).
 * @throws AppError 400 on `configuration.installer`.
 */
export async function checkPolicyInstaller(ctx: Pick<AppContext, 'db'>, zoneId: number, configuration: unknown) {
  const installer = (configuration as { installer?: Partial<InstallerFile> | null } | null)?.installer;
  if (!installer) return;
  const id = installer.id ?? '';
  const row = await findZoneInstaller(ctx, zoneId, id);
  if (!row) {
    throw validationError({
      'configuration.installer': ['This installer was not uploaded to this zone. Upload the file again.'],
    });
  }
  if (row.sha256 !== installer.sha256 || row.sizeBytes !== installer.size_bytes) {
    throw validationError({
      'configuration.installer': ['The installer’s size or checksum does not match the uploaded file.'],
    });
  }
}

/** The zone's installer of that id, if any (none for an id that is not a UUID). */
export function findZoneInstaller(ctx: Pick<AppContext, 'db'>, zoneId: number, id: string) {
  return UUID.test(id) ? findInstaller(ctx.db, zoneId, id) : Promise.resolve(undefined);
}

/** A copy of an installer in another zone: a row of its own there, its file linked or copied. */
export async function copyInstallerToZone(
  ctx: AppContext,
  row: InstallerRow,
  toZoneId: number,
  userId: number,
): Promise<InstallerRow> {
  await copyToZone(ctx.config, row.organizationId, toZoneId, row.sha256);
  return insertInstaller(ctx.db, {
    id: randomUUID(),
    organizationId: toZoneId,
    name: row.name,
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
    createdBy: userId,
    createdAt: ctx.clock.now(),
  });
}

/**
 * An installer for a device's download: only one of the device's zone, and only while the
 * device has an open install command carrying it; anything else answers 404 alike.
 */
export async function openInstallerForDevice(
  ctx: AppContext,
  device: { id: number; organizationId: number },
  id: string,
) {
  const row = await findZoneInstaller(ctx, device.organizationId, id);
  if (!row || !(await hasOpenInstallerCommand(ctx.db, device.id, row.id))) throw notFound();
  const file = await openStoredFile(ctx.config, row.organizationId, row.sha256);
  if (!file) {
    ctx.logger.error({ installer: row.id, zone: row.organizationId }, 'installer file missing on this node');
    throw new AppError('installers.file_missing');
  }
  return { row, ...file };
}
