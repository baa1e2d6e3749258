import { z } from 'zod';
import { ID_MAX } from '../constants';
import { isLoopbackUrl } from '../devices/devices.schema';
import { TEXTS } from '../texts';
import { ZONE_ROLES } from '../zones/roles';
import { ZDomainName } from './domains.schema';

/**
 * SAML 2.0 connections of an account (issue 13, spec A sections 3 and 5): the identity
 * provider, described by its metadata XML or by certificate + sign-in URL + entity ID; the
 * e-mail domains whose users sign in through it; and how users are provisioned.
 */

export const PROVISION_TYPES = ['invite', 'zone_rbac'] as const;
export type ProvisionType = (typeof PROVISION_TYPES)[number];

export const PROVISION_TYPE_LABELS: Record<ProvisionType, string> = {
  invite: 'Invite only: only users invited to a zone may sign in',
  zone_rbac: 'Create users on first sign-in with the roles below',
};

export const CONNECTION_NAME_MAX = 100;
export const CONNECTION_DOMAINS_MAX = 50;
/** Largest IdP metadata document accepted (a federation's aggregate is not what belongs here). */
export const IDP_METADATA_MAX_BYTES = 256 * 1024;
export const IDP_CERTIFICATE_MAX = 16 * 1024;
export const IDP_URL_MAX = 2000;

export const CONNECTION_TEXTS = {
  created: 'Success: The connection has been created.',
  updated: 'Success: The connection has been updated.',
  deleted: 'Success: The connection has been deleted.',
  idpRequired: 'Paste the identity provider’s metadata XML, or enter its certificate, sign-in URL and entity ID.',
  urlInvalid: 'Must be an https:// URL (http:// only to this machine).',
  metadataTooLarge: `The metadata must be at most ${IDP_METADATA_MAX_BYTES / 1024} KB.`,
  metadataInvalid: (problem: string) => `The metadata could not be read: ${problem}`,
  certificateInvalid: 'Must be an X.509 certificate in PEM form (-----BEGIN CERTIFICATE-----).',
  roleRequired: 'Choose a default role or at least one zone and role.',
  zoneRepeated: 'Each zone may appear once.',
  zoneUnknown: 'This zone is not one of your account’s zones.',
} as const;

const ROLE_IDS = ZONE_ROLES.map((r) => r.id);
const ZRoleId = z
  .number()
  .int()
  .min(Math.min(...ROLE_IDS), TEXTS.users.roleRequired)
  .max(Math.max(...ROLE_IDS), TEXTS.users.roleRequired)
  .refine((id) => ZONE_ROLES.some((r) => r.id === id), TEXTS.users.roleRequired);

/** An https URL, or http to this machine (tests and development). */
export const ZIdpUrl = z
  .string()
  .trim()
  .max(IDP_URL_MAX, CONNECTION_TEXTS.urlInvalid)
  .refine((url) => {
    try {
      const u = new URL(url);
      return (u.protocol === 'https:' && !!u.hostname) || (u.protocol === 'http:' && isLoopbackUrl(url));
    } catch {
      return false;
    }
  }, CONNECTION_TEXTS.urlInvalid);

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((s) => (s && s.trim() ? s.trim() : null));

/** `POST /api/accounts/{accountId}/connections` and `PUT …/{connectionId}` (the whole connection). */
export const ZConnectionBody = z
  .object({
    /** Shown in the connection list. */
    name: z.string().trim().min(1, TEXTS.validation.required).max(CONNECTION_NAME_MAX),
    /** `invite`: only invited users sign in; `zone_rbac`: users are created on first sign-in with the roles below. */
    provision_type: z.enum(PROVISION_TYPES),
    /** E-mail domains whose users sign in through this connection (a domain on another of the account's connections moves here). */
    domains: z
      .array(ZDomainName)
      .min(1, TEXTS.validation.atLeastOne)
      .max(CONNECTION_DOMAINS_MAX)
      .transform((names) => [...new Set(names)]),
    /** The IdP's SAML metadata (an EntityDescriptor). When given, the three fields below are read from it. */
    metadata_xml: optionalText(IDP_METADATA_MAX_BYTES),
    /** The IdP's signing certificate, PEM. */
    certificate: optionalText(IDP_CERTIFICATE_MAX),
    /** The IdP's sign-in URL (SingleSignOnService, HTTP-Redirect binding). */
    sso_url: optionalText(IDP_URL_MAX),
    /** The IdP's entity ID (its Issuer). */
    entity_id: optionalText(1024),
    /** `zone_rbac`: the zone role (core's role ids) users get in every zone of the account with no pair below. */
    default_role_id: ZRoleId.nullish().transform((v) => v ?? null),
    /** `zone_rbac`: the role users get in particular zones. */
    zone_roles: z
      .array(z.object({ zone_id: z.number().int().positive().max(ID_MAX), role_id: ZRoleId }))
      .max(500)
      .default([]),
  })
  .superRefine((body, c) => {
    if (!body.metadata_xml) {
      const missing = (['certificate', 'sso_url', 'entity_id'] as const).filter((f) => !body[f]);
      if (missing.length === 3)
        c.addIssue({ code: 'custom', path: ['metadata_xml'], message: CONNECTION_TEXTS.idpRequired });
      else for (const f of missing) c.addIssue({ code: 'custom', path: [f], message: TEXTS.validation.required });
      if (body.sso_url && !ZIdpUrl.safeParse(body.sso_url).success) {
        c.addIssue({ code: 'custom', path: ['sso_url'], message: CONNECTION_TEXTS.urlInvalid });
      }
    }
    if (body.provision_type === 'zone_rbac' && body.default_role_id === null && body.zone_roles.length === 0) {
      c.addIssue({ code: 'custom', path: ['default_role_id'], message: CONNECTION_TEXTS.roleRequired });
    }
    const zones = body.zone_roles.map((p) => p.zone_id);
    if (new Set(zones).size !== zones.length) {
      c.addIssue({ code: 'custom', path: ['zone_roles'], message: CONNECTION_TEXTS.zoneRepeated });
    }
  });
export type ConnectionBody = z.infer<typeof ZConnectionBody>;

/** Where the IdP sends users back, and how it knows Patchwell (null when the server's public address is unknown). */
export const ZServiceProvider = z.object({
  entity_id: z.string(),
  acs_url: z.string(),
  metadata_url: z.string(),
});
export type ServiceProvider = z.infer<typeof ZServiceProvider>;

export const ZConnectionCertificate = z.object({
  pem: z.string(),
  subject: z.string(),
  not_after: z.string(),
  /** SHA-256 fingerprint, colon-separated hex. */
  fingerprint_sha256: z.string(),
});

export const ZConnection = z.object({
  /** The connection's public id (a UUID, also in its SP URLs). */
  id: z.string(),
  name: z.string(),
  provision_type: z.enum(PROVISION_TYPES),
  domains: z.array(z.object({ id: z.string(), name: z.string(), status: z.enum(['pending', 'verified']) })),
  /** The metadata as uploaded; null when the IdP was entered by fields. */
  metadata_xml: z.string().nullable(),
  idp: z.object({
    entity_id: z.string(),
    sso_url: z.string(),
    certificates: z.array(ZConnectionCertificate),
  }),
  default_role_id: z.number().int().nullable(),
  zone_roles: z.array(z.object({ zone_id: z.number().int(), zone_name: z.string(), role_id: z.number().int() })),
  sp: ZServiceProvider.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Connection = z.infer<typeof ZConnection>;

export const ZConnectionList = z.object({ data: z.array(ZConnection), size: z.number().int() });
export type ConnectionList = z.infer<typeof ZConnectionList>;
