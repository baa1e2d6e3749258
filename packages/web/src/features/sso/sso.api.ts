import {
  ZConnection,
  ZConnectionList,
  type Connection,
  type ConnectionBody,
  type ZConnectionBody,
} from '@patchwell/core/sso/connections.schema';
import {
  ZAccountDomain,
  ZAccountDomainList,
  ZDomainVerifyResult,
  type AccountDomain,
  type DomainVerifyResult,
} from '@patchwell/core/sso/domains.schema';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../api/client';

/** Global setup › Authentication and Domains: an account's SAML connections and e-mail domains. */

export const ssoKeys = {
  connections: (accountId: number) => ['sso', accountId, 'connections'] as const,
  connection: (accountId: number, id: string) => ['sso', accountId, 'connections', id] as const,
  domains: (accountId: number) => ['sso', accountId, 'domains'] as const,
  /** Everything of the account: a connection's save may add or move domains. */
  account: (accountId: number) => ['sso', accountId] as const,
};

const connections = (accountId: number) => `/api/accounts/${accountId}/connections`;
const domains = (accountId: number) => `/api/accounts/${accountId}/domains`;

/** The body a connection form sends: the shared schema's input (before its transforms). */
export type ConnectionInput = z.input<typeof ZConnectionBody>;

export function useConnections(accountId: number) {
  return useQuery({
    queryKey: ssoKeys.connections(accountId),
    queryFn: ({ signal }) => api.request(connections(accountId), { schema: ZConnectionList, signal }),
    meta: { onError: 'none' },
  });
}

export function useConnection(accountId: number, id: string) {
  return useQuery({
    queryKey: ssoKeys.connection(accountId, id),
    queryFn: ({ signal }) => api.request(`${connections(accountId)}/${id}`, { schema: ZConnection, signal }),
    meta: { onError: 'none' },
  });
}

export function createConnection(accountId: number, body: ConnectionInput | ConnectionBody): Promise<Connection> {
  return api.request(connections(accountId), { method: 'POST', body, schema: ZConnection });
}

export function updateConnection(
  accountId: number,
  id: string,
  body: ConnectionInput | ConnectionBody,
): Promise<Connection> {
  return api.request(`${connections(accountId)}/${id}`, { method: 'PUT', body, schema: ZConnection });
}

export function deleteConnection(accountId: number, id: string): Promise<unknown> {
  return api.request(`${connections(accountId)}/${id}`, { method: 'DELETE' });
}

export function useDomains(accountId: number) {
  return useQuery({
    queryKey: ssoKeys.domains(accountId),
    queryFn: ({ signal }) => api.request(domains(accountId), { schema: ZAccountDomainList, signal }),
    meta: { onError: 'none' },
  });
}

export function addDomain(accountId: number, name: string): Promise<AccountDomain> {
  return api.request(domains(accountId), { method: 'POST', body: { name }, schema: ZAccountDomain });
}

export function verifyDomain(accountId: number, id: string): Promise<DomainVerifyResult> {
  // A DNS check may wait for a slow server twice; the server bounds it well under this.
  return api.request(`${domains(accountId)}/${id}/verify`, { method: 'POST', schema: ZDomainVerifyResult });
}

export function deleteDomain(accountId: number, id: string): Promise<unknown> {
  return api.request(`${domains(accountId)}/${id}`, { method: 'DELETE' });
}
