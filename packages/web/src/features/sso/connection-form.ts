import { ZConnectionBody, type Connection, type ProvisionType } from '@patchwell/core/sso/connections.schema';

/**
 * The connection form's values (strings, as inputs hold them) and the body they become. The
 * body is checked with the shared schema before it is sent, so the form shows the server's
 * own texts; the server's answers map back onto the same fields.
 */
export type ConnectionFormValues = {
  name: string;
  provision_type: ProvisionType;
  domains: string;
  idp_mode: 'metadata' | 'fields';
  metadata_xml: string;
  certificate: string;
  sso_url: string;
  entity_id: string;
  default_role_id: string;
  zone_roles: { zone_id: string; role_id: string }[];
};

export const emptyConnectionForm: ConnectionFormValues = {
  name: '',
  provision_type: 'invite',
  domains: '',
  idp_mode: 'fields',
  metadata_xml: '',
  certificate: '',
  sso_url: '',
  entity_id: '',
  default_role_id: '',
  zone_roles: [],
};

export function connectionFormOf(c: Connection): ConnectionFormValues {
  return {
    name: c.name,
    provision_type: c.provision_type,
    domains: c.domains.map((d) => d.name).join('\n'),
    idp_mode: c.metadata_xml ? 'metadata' : 'fields',
    metadata_xml: c.metadata_xml ?? '',
    certificate: c.idp.certificates[0]?.pem ?? '',
    sso_url: c.idp.sso_url,
    entity_id: c.idp.entity_id,
    default_role_id: c.default_role_id === null ? '' : String(c.default_role_id),
    zone_roles: c.zone_roles.map((p) => ({ zone_id: String(p.zone_id), role_id: String(p.role_id) })),
  };
}

const number = (s: string) => (s === '' ? Number.NaN : Number(s));

/** The request body of the form's values (only the chosen way of describing the IdP is sent). */
export function connectionBodyOf(v: ConnectionFormValues) {
  const isRbac = v.provision_type === 'zone_rbac';
  return {
    name: v.name,
    provision_type: v.provision_type,
    domains: v.domains
      .split(/[\s,;]+/)
      .map((d) => d.trim())
      .filter(Boolean),
    ...(v.idp_mode === 'metadata'
      ? { metadata_xml: v.metadata_xml }
      : { certificate: v.certificate, sso_url: v.sso_url, entity_id: v.entity_id }),
    default_role_id: isRbac && v.default_role_id !== '' ? Number(v.default_role_id) : null,
    zone_roles: isRbac ? v.zone_roles.map((p) => ({ zone_id: number(p.zone_id), role_id: number(p.role_id) })) : [],
  };
}

/** The form field a body or server error path belongs to (`domains.2` → `domains`). */
export function formFieldOf(path: string): string {
  if (path.startsWith('domains')) return 'domains';
  if (/^zone_roles\.\d+\.(zone_id|role_id)$/.test(path)) return path;
  if (path.startsWith('zone_roles')) return 'zone_roles';
  return path.split('.')[0] ?? path;
}

/** Problems of the form by field, from the shared schema; empty when the body may be sent. */
export function connectionFormErrors(v: ConnectionFormValues): Record<string, string> {
  const parsed = ZConnectionBody.safeParse(connectionBodyOf(v));
  const out: Record<string, string> = {};
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const field = formFieldOf(issue.path.join('.'));
    if (!out[field]) out[field] = issue.message;
  }
  return out;
}
