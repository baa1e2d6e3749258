import { CONNECTION_TEXTS } from '@patchwell/core/sso/connections.schema';
import { TEXTS } from '@patchwell/core/texts';
import { describe, expect, it } from 'vitest';
import { connectionBodyOf, connectionFormErrors, emptyConnectionForm, formFieldOf } from './connection-form';

describe('the connection form', () => {
  const filled = {
    ...emptyConnectionForm,
    name: 'Okta',
    domains: 'Example.com,\nexample.org  example.net.',
    certificate: '-----BEGIN CERTIFICATE-----',
    sso_url: 'https://idp.example.test/sso',
    entity_id: 'https://idp.example.test/',
  };

  it('sends the domains as a list, only the chosen IdP fields, and roles only for zone_rbac', () => {
    const body = connectionBodyOf({ ...filled, default_role_id: '2', zone_roles: [{ zone_id: '4', role_id: '1' }] });
    expect(body).toEqual({
      name: 'Okta',
      provision_type: 'invite',
      domains: ['Example.com', 'example.org', 'example.net.'],
      certificate: filled.certificate,
      sso_url: filled.sso_url,
      entity_id: filled.entity_id,
      default_role_id: null,
      zone_roles: [],
    });
    const rbac = connectionBodyOf({
      ...filled,
      provision_type: 'zone_rbac',
      idp_mode: 'metadata',
      metadata_xml: '<x/>',
      default_role_id: '2',
    });
    expect(rbac).toMatchObject({ metadata_xml: '<x/>', default_role_id: 2 });
    expect(rbac).not.toHaveProperty('certificate');
  });

  it('shows the shared schema’s texts on the form’s fields', () => {
    expect(connectionFormErrors(filled)).toEqual({});
    expect(connectionFormErrors({ ...filled, name: '', domains: '' })).toEqual({
      name: TEXTS.validation.required,
      domains: TEXTS.validation.atLeastOne,
    });
    expect(connectionFormErrors({ ...filled, domains: 'example.com not_a_domain' }).domains).toBe(
      TEXTS.validation.domain,
    );
    expect(connectionFormErrors({ ...filled, provision_type: 'zone_rbac' }).default_role_id).toBe(
      CONNECTION_TEXTS.roleRequired,
    );
    expect(formFieldOf('domains.3')).toBe('domains');
    expect(formFieldOf('zone_roles.0.zone_id')).toBe('zone_roles.0.zone_id');
  });
});
