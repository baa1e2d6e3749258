import { accountId, strings, admin, atAccount, connectionBody, type Case } from './context';

/** Single sign-on: verified domains and SAML connections. */
export const ssoCases: Record<string, Case> = {
  'POST /api/accounts/{accountId}/domains': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/domains`, { name: 'audited.example' });
      strings.domain = res.body?.id;
      return res;
    },
    action: 'domain.create',
    zone: atAccount,
  },
  'POST /api/accounts/{accountId}/domains/{domainId}/verify': {
    // The loopback DNS server has no record for the domain: the check fails, and is still recorded.
    run: () => admin().post(`/api/accounts/${accountId}/domains/${strings.domain}/verify`),
    action: 'domain.verify',
    zone: atAccount,
  },
  'DELETE /api/accounts/{accountId}/domains/{domainId}': {
    run: () => admin().del(`/api/accounts/${accountId}/domains/${strings.domain}`),
    action: 'domain.delete',
    zone: atAccount,
  },
  'POST /api/accounts/{accountId}/connections': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/connections`, connectionBody('Audited IdP'));
      strings.connection = res.body?.id;
      return res;
    },
    action: 'saml_connection.create',
    zone: atAccount,
  },
  'PUT /api/accounts/{accountId}/connections/{connectionId}': {
    run: () =>
      admin().put(`/api/accounts/${accountId}/connections/${strings.connection}`, connectionBody('Audited IdP 2')),
    action: 'saml_connection.update',
    zone: atAccount,
  },
  'DELETE /api/accounts/{accountId}/connections/{connectionId}': {
    run: () => admin().del(`/api/accounts/${accountId}/connections/${strings.connection}`),
    action: 'saml_connection.delete',
    zone: atAccount,
  },
};
