import { ZApiKeyList, ZCreatedApiKey, type CreateApiKeyBody } from '@patchwell/core/users/api-keys.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** API key calls (docs/api/zones-users-contract.md, "API keys"). */
export const keyKeys = { list: (zoneId: number) => ['api-keys', zoneId] as const, all: ['api-keys'] as const };

/** `GET /api/users/self/api_keys?o=`: the caller's keys (never the secrets). */
export function useApiKeys(zoneId: number) {
  return useQuery({
    queryKey: keyKeys.list(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/users/self/api_keys', { query: { o: zoneId }, schema: ZApiKeyList, signal }),
  });
}

/** `POST /api/users/self/api_keys?o=`: the answer holds the key, this one time. */
export function createApiKey(zoneId: number, body: CreateApiKeyBody) {
  return api.request('/api/users/self/api_keys', {
    method: 'POST',
    query: { o: zoneId },
    body,
    schema: ZCreatedApiKey,
  });
}

/** `DELETE /api/users/self/api_keys/{id}`: refused from the very next request on. */
export function revokeApiKey(zoneId: number, keyId: number) {
  return api.request(`/api/users/self/api_keys/${keyId}`, { method: 'DELETE', query: { o: zoneId } });
}
