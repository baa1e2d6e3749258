import { createHash, X509Certificate, type KeyObject } from 'node:crypto';
import {
  APNS_TEXTS,
  APNS_TOPIC_PREFIX,
  apnsExpiry,
  type ApnsCertificate,
  type ApnsSettings,
  type CreateApnsCsrBody,
  type UploadApnsCertificateBody,
} from '@patchwell/core/apns/apns.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { notFound, validationError } from '../../domain/errors';
import { logActivity } from '../activity/activity.service';
import { featuresFor } from '../shell/shell.service';
import { decryptSecret, encryptSecret } from '../zones/access-key';
import { secretKey } from '../zones/secret-key';
import { requireZone } from '../zones/zone-access.service';
import type { ZoneRow } from '../zones/zones.store';
import { deleteApns, findApns, upsertApns, type ApnsRowWithNames } from './apns.store';
import {
  canSignRequest,
  certDate,
  keyFromPem,
  keyToPem,
  makeCsr,
  newRsaKey,
  oneLine,
  readUpload,
  topicOf,
  UploadProblem,
} from './certificate';

/**
 * APNS settings of a zone (issue 15): a signing request made here with a new RSA key (or,
 * for a renewal, the current certificate's key), the Apple push certificate uploaded back,
 * parsed with node:crypto and checked against that key, and shown with its topic and
 * expiry (a warning 30 days before). Organization.manage and the view-configurations
 * feature; without the feature the settings do not exist (404), as the page.
 */

/** The subject of the requests made here; Apple issues the certificate to its own subject (the topic's UID). */
const CSR_SUBJECT = { commonName: 'Patchwell APNS', organization: 'Patchwell' };

/** The zone of `o` once the caller has Organization.manage there and the feature is on. */
async function requireApnsZone(ctx: AppContext, authz: Authz, o: number | undefined): Promise<ZoneRow> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  const features = await featuresFor(ctx, zone.accountId, zone.id);
  if (!features.configurations_routes) throw notFound();
  return zone;
}

async function seal(ctx: AppContext, key: KeyObject): Promise<string> {
  return encryptSecret(keyToPem(key), await secretKey(ctx.config));
}

/** A stored key, or undefined when there is none or it no longer opens (the server's secret key changed). */
async function unseal(ctx: AppContext, sealed: string | null): Promise<KeyObject | undefined> {
  if (!sealed) return undefined;
  const pem = decryptSecret(sealed, await secretKey(ctx.config));
  return pem ? keyFromPem(pem) : undefined;
}

function describe(cert: X509Certificate, row: ApnsRowWithNames, now: Date): ApnsCertificate {
  const validTo = certDate(cert.validTo);
  return {
    subject: oneLine(cert.subject),
    topic: topicOf(cert) ?? '',
    serial: cert.serialNumber,
    issuer: oneLine(cert.issuer),
    valid_from: certDate(cert.validFrom).toISOString(),
    valid_to: validTo.toISOString(),
    fingerprint_sha256: cert.fingerprint256,
    ...apnsExpiry(validTo, now),
    has_private_key: row.certificateKeySealed !== null,
    uploaded_at: (row.certificateUploadedAt ?? row.updatedAt).toISOString(),
    uploaded_by: row.uploadedByEmail,
  };
}

async function settingsOf(ctx: AppContext, zoneId: number): Promise<ApnsSettings> {
  const row = await findApns(ctx.db, zoneId);
  if (!row) return { csr: null, certificate: null };
  return {
    csr:
      row.csrPem && row.csrCreatedAt
        ? {
            pem: row.csrPem,
            subject: `CN=${CSR_SUBJECT.commonName}, O=${CSR_SUBJECT.organization}`,
            created_at: row.csrCreatedAt.toISOString(),
            created_by: row.csrCreatedByEmail,
            reuses_key: row.csrKeySealed !== null && row.csrKeySealed === row.certificateKeySealed,
          }
        : null,
    certificate: row.certificatePem ? describe(new X509Certificate(row.certificatePem), row, ctx.clock.now()) : null,
  };
}

/** `GET /api/apns?o`: the pending request and the current certificate. */
export async function getApnsSettings(ctx: AppContext, authz: Authz, o: number | undefined): Promise<ApnsSettings> {
  const zone = await requireApnsZone(ctx, authz, o);
  return settingsOf(ctx, zone.id);
}

/** `GET /api/apns/csr.pem?o`: the pending request's PEM, or 404 when none is pending. */
export async function getApnsCsrPem(ctx: AppContext, authz: Authz, o: number | undefined): Promise<string> {
  const zone = await requireApnsZone(ctx, authz, o);
  const row = await findApns(ctx.db, zone.id);
  if (!row?.csrPem) throw notFound();
  return row.csrPem;
}

/**
 * `POST /api/apns/csr?o`: a new signing request. It reuses the current certificate's key
 * (a renewal keeps the key) unless `new_key` or there is none, then a new RSA 2048 key.
 * It replaces a request still pending; the current certificate stays until an upload.
 */
export async function createApnsCsr(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: CreateApnsCsrBody,
): Promise<ApnsSettings> {
  const zone = await requireApnsZone(ctx, authz, o);
  const before = await findApns(ctx.db, zone.id);
  const current = body.new_key ? undefined : await unseal(ctx, before?.certificateKeySealed ?? null);
  const reuse = current && canSignRequest(current) ? current : undefined;
  const key = reuse ?? (await newRsaKey());
  const pem = makeCsr(key, CSR_SUBJECT);
  const sealed = reuse ? before!.certificateKeySealed! : await seal(ctx, key);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await upsertApns(tx, zone.id, {
      csrPem: pem,
      csrKeySealed: sealed,
      csrCreatedAt: now,
      csrCreatedBy: authz.userId,
      updatedAt: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'apns.csr_create',
      { type: 'apns', id: zone.id },
      { reuses_key: Boolean(reuse), replaced_pending: Boolean(before?.csrPem) },
      tx,
    );
  });
  return settingsOf(ctx, zone.id);
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * `PUT /api/apns/certificate?o`: the Apple push certificate, as PEM, DER or PKCS#12 (with
 * its password). Refused (400) when it is not a certificate, the password is wrong, it has
 * no Apple MDM topic, it has expired, or it does not match the key kept here: the pending
 * request's, else the current certificate's. A key inside the file must match its
 * certificate and is kept instead. A renewal must keep the topic; the new certificate
 * replaces the old.
 */
export async function uploadApnsCertificate(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: UploadApnsCertificateBody,
): Promise<ApnsSettings> {
  const zone = await requireApnsZone(ctx, authz, o);
  let read;
  try {
    read = readUpload(body);
  } catch (err) {
    if (err instanceof UploadProblem) throw validationError({ [err.field]: [err.message] });
    throw err;
  }
  const { cert, key: fileKey } = read;
  const topic = topicOf(cert);
  if (!topic) throw validationError({ data: [APNS_TEXTS.noTopic] });
  if (!topic.startsWith(APNS_TOPIC_PREFIX)) throw validationError({ data: [APNS_TEXTS.notApplePush] });
  const now = ctx.clock.now();
  const validTo = certDate(cert.validTo);
  if (validTo.getTime() <= now.getTime()) throw validationError({ data: [APNS_TEXTS.expired(day(validTo))] });
  if (fileKey && !cert.checkPrivateKey(fileKey)) throw validationError({ data: [APNS_TEXTS.keyNotOfCertificate] });

  await ctx.db.transaction(async (tx) => {
    const before = await findApns(tx, zone.id, true);
    const pending = await unseal(ctx, before?.csrKeySealed ?? null);
    const current = await unseal(ctx, before?.certificateKeySealed ?? null);
    let keySealed: string | null;
    let usedPending = false;
    if (fileKey) keySealed = await seal(ctx, fileKey);
    else if (pending && cert.checkPrivateKey(pending)) {
      keySealed = before!.csrKeySealed;
      usedPending = true;
    } else if (current && cert.checkPrivateKey(current)) keySealed = before!.certificateKeySealed;
    else if (pending || current) throw validationError({ data: [APNS_TEXTS.keyMismatch] });
    else keySealed = null;

    let previous: { serial: string; topic: string | undefined } | undefined;
    if (before?.certificatePem) {
      const old = new X509Certificate(before.certificatePem);
      previous = { serial: old.serialNumber, topic: topicOf(old) };
      if (previous.topic && previous.topic !== topic) {
        throw validationError({ data: [APNS_TEXTS.topicChanged(previous.topic, topic)] });
      }
    }
    await upsertApns(tx, zone.id, {
      certificatePem: cert.toString(),
      certificateKeySealed: keySealed,
      certificateUploadedAt: now,
      certificateUploadedBy: authz.userId,
      // The request the certificate answers is done with; one made from the same key too.
      ...(usedPending || before?.csrKeySealed === keySealed
        ? { csrPem: null, csrKeySealed: null, csrCreatedAt: null, csrCreatedBy: null }
        : {}),
      updatedAt: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      previous ? 'apns.certificate_renew' : 'apns.certificate_upload',
      { type: 'apns', id: zone.id, name: topic },
      {
        topic,
        serial: cert.serialNumber,
        valid_to: validTo.toISOString(),
        sha256: createHash('sha256').update(cert.raw).digest('hex'),
        has_private_key: keySealed !== null,
        ...(previous ? { previous_serial: previous.serial } : {}),
      },
      tx,
    );
  });
  return settingsOf(ctx, zone.id);
}

/** `DELETE /api/apns?o`: removes the request, the certificate and their keys. */
export async function deleteApnsSettings(ctx: AppContext, authz: Authz, o: number | undefined): Promise<void> {
  const zone = await requireApnsZone(ctx, authz, o);
  await ctx.db.transaction(async (tx) => {
    const before = await findApns(tx, zone.id, true);
    if (!before || !(await deleteApns(tx, zone.id))) throw notFound();
    const topic = before.certificatePem ? topicOf(new X509Certificate(before.certificatePem)) : undefined;
    await logActivity(ctx, authz, zone.id, 'apns.delete', { type: 'apns', id: zone.id, name: topic ?? null }, {}, tx);
  });
}
