import { z } from 'zod';
import { ONE_DAY_MS } from '../constants';

/**
 * APNS settings (issue 15; spec A section 2 "APNS settings", spec B "An APNS certificate is
 * valid for one year"): a zone's Apple Push Notification service certificate for managing
 * macOS devices. The server makes a key pair and a certificate signing request, the
 * administrator has Apple sign it, then uploads the push certificate, which is parsed and
 * checked against the key; the key is kept encrypted. Organization.manage and the
 * view-configurations feature (`configurations_routes`).
 */

/** How long Apple's push certificates are valid (spec B). */
export const APNS_VALIDITY_DAYS = 365;
/** Days before its end from which a certificate is shown as expiring. */
export const APNS_EXPIRY_WARNING_DAYS = 30;
/** The largest certificate file accepted (PEM, DER or PKCS#12). */
export const APNS_FILE_BYTES_MAX = 64 * 1024;
/** Base64 characters of a {@link APNS_FILE_BYTES_MAX}-byte file. */
const BASE64_MAX = Math.ceil(APNS_FILE_BYTES_MAX / 3) * 4;
export const APNS_PASSWORD_MAX = 256;
/** Apple's MDM push topics begin with this; the topic is the certificate subject's UID. */
export const APNS_TOPIC_PREFIX = 'com.apple.mgmt.';

export const APNS_TEXTS = {
  fileTooLarge: `The certificate file must be at most ${APNS_FILE_BYTES_MAX / 1024} KB.`,
  fileRequired: 'Choose the certificate file.',
  notCertificate: 'This file is not a certificate in PEM, DER or PKCS#12 format.',
  notBase64: 'The file content must be base64.',
  badPassword: 'The password does not open this PKCS#12 file.',
  noCertificateInBundle: 'The PKCS#12 file holds no certificate.',
  badKeyInFile: 'The private key in the file could not be read (is it encrypted with another password?).',
  keyNotOfCertificate: 'The private key in the file does not belong to its certificate.',
  noTopic:
    'The certificate has no push topic (a UID in its subject). Upload the certificate Apple’s Push Certificates Portal issued.',
  notApplePush: `The certificate’s topic must begin with ${APNS_TOPIC_PREFIX}: this is not an Apple MDM push certificate.`,
  expired: (date: string) => `The certificate expired on ${date}.`,
  keyMismatch:
    'The certificate does not match the private key of the signing request generated here. Upload the certificate Apple issued for that request.',
  topicChanged: (from: string, to: string) =>
    `The new certificate’s topic ${to} differs from the current ${from}: Apple renews a certificate with the same topic, and devices enrolled with the old topic would stop answering. Remove the current certificate first to change it.`,
} as const;

/** The expiry of a certificate as seen at `now`: whole days left, soon (≤ 30 days), past. */
export function apnsExpiry(validTo: Date, now: Date): { days_left: number; expiring_soon: boolean; expired: boolean } {
  const left = validTo.getTime() - now.getTime();
  const expired = left <= 0;
  return {
    days_left: expired ? 0 : Math.floor(left / ONE_DAY_MS),
    expiring_soon: !expired && left <= APNS_EXPIRY_WARNING_DAYS * ONE_DAY_MS,
    expired,
  };
}

/** The pending certificate signing request (PKCS#10, PEM), to have Apple sign. */
export const ZApnsCsr = z.object({
  pem: z.string(),
  /** The request's subject, as the certificate will be issued to. */
  subject: z.string(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  /** Made from the current certificate's key (a renewal keeps the key) rather than a new one. */
  reuses_key: z.boolean(),
});
export type ApnsCsr = z.infer<typeof ZApnsCsr>;

/** The uploaded push certificate, as parsed by the server. */
export const ZApnsCertificate = z.object({
  subject: z.string(),
  /** The push topic: the subject's UID, e.g. `com.apple.mgmt.External.<uuid>`. */
  topic: z.string(),
  serial: z.string(),
  issuer: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
  fingerprint_sha256: z.string(),
  days_left: z.number().int(),
  /** Within {@link APNS_EXPIRY_WARNING_DAYS} days of its end. */
  expiring_soon: z.boolean(),
  expired: z.boolean(),
  /** Whether the certificate's private key is stored (encrypted) here. */
  has_private_key: z.boolean(),
  uploaded_at: z.string(),
  uploaded_by: z.string().nullable(),
});
export type ApnsCertificate = z.infer<typeof ZApnsCertificate>;

/** `GET /api/apns?o`. */
export const ZApnsSettings = z.object({
  csr: ZApnsCsr.nullable(),
  certificate: ZApnsCertificate.nullable(),
});
export type ApnsSettings = z.infer<typeof ZApnsSettings>;

/** `POST /api/apns/csr?o`. */
export const ZCreateApnsCsrBody = z.object({
  /**
   * A new key pair even when a certificate's key is stored. Default: the stored key is
   * reused (Apple renews with a request from the same key), else a new RSA 2048 key.
   */
  new_key: z.boolean().default(false),
});
export type CreateApnsCsrBody = z.infer<typeof ZCreateApnsCsrBody>;

export const APNS_FORMATS = ['pem', 'der', 'pkcs12'] as const;
export type ApnsFormat = (typeof APNS_FORMATS)[number];

/** `PUT /api/apns/certificate?o`: the file whole, as PEM text or as base64 (DER, PKCS#12). */
export const ZUploadApnsCertificateBody = z
  .object({
    format: z.enum(APNS_FORMATS),
    /** PEM text for `pem`; the file's bytes in base64 for `der` and `pkcs12`. */
    data: z.string().min(1, APNS_TEXTS.fileRequired).max(BASE64_MAX, APNS_TEXTS.fileTooLarge),
    /** The PKCS#12 file's password (or a PEM private key's passphrase). */
    password: z.string().max(APNS_PASSWORD_MAX).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.format === 'pem') {
      if (new TextEncoder().encode(body.data).length > APNS_FILE_BYTES_MAX) {
        ctx.addIssue({ code: 'custom', path: ['data'], message: APNS_TEXTS.fileTooLarge });
      }
    } else if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body.data.replace(/\s+/g, ''))) {
      ctx.addIssue({ code: 'custom', path: ['data'], message: APNS_TEXTS.notBase64 });
    }
  });
export type UploadApnsCertificateBody = z.infer<typeof ZUploadApnsCertificateBody>;
