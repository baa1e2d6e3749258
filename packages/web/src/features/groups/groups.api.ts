import {
  ZServerGroup,
  ZServerGroupList,
  type CreateServerGroupBody,
  type UpdateServerGroupBody,
} from '@patchwell/core/devices/groups.schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { PAGE_DATA_FRESH_MS } from '../../app/page-data';

/** Group calls (docs/api/devices-agent-contract.md; spec B section 7 sends `internal=1`). */
export const groupKeys = {
  all: ['servergroups'] as const,
  list: (zoneId: number) => ['servergroups', zoneId] as const,
  detail: (zoneId: number, id: number) => ['servergroups', zoneId, id] as const,
};

/** `GET /api/servergroups?o=`. */
export function groupsQuery(zoneId: number) {
  return queryOptions({
    queryKey: groupKeys.list(zoneId),
    staleTime: PAGE_DATA_FRESH_MS,
    queryFn: ({ signal }) =>
      api.request('/api/servergroups', { query: { o: zoneId }, schema: ZServerGroupList, signal }),
  });
}

export function useGroups(zoneId: number) {
  return useQuery(groupsQuery(zoneId));
}

/** `GET /api/servergroups/{id}?o=&internal=1`. */
export function useGroup(zoneId: number, id: number, enabled = true) {
  return useQuery({
    queryKey: groupKeys.detail(zoneId, id),
    queryFn: ({ signal }) =>
      api.request(`/api/servergroups/${id}`, { query: { o: zoneId, internal: 1 }, schema: ZServerGroup, signal }),
    enabled,
    meta: { onError: 'none' },
  });
}

/** `POST /api/servergroups?o=&internal=1` (ServerGroup.create). */
export function createGroup(zoneId: number, body: CreateServerGroupBody) {
  return api.request('/api/servergroups', {
    method: 'POST',
    query: { o: zoneId, internal: 1 },
    body,
    schema: ZServerGroup,
  });
}

/** `PUT /api/servergroups/{id}?o=&internal=1` (ServerGroup.modify); `organization_id` must equal `o`. */
export function updateGroup(zoneId: number, id: number, body: UpdateServerGroupBody) {
  return api.request(`/api/servergroups/${id}`, { method: 'PUT', query: { o: zoneId, internal: 1 }, body });
}

/** `DELETE /api/servergroups/{id}?o=&internal=1` (ServerGroup.delete); its devices move to the default group. */
export function deleteGroup(zoneId: number, id: number) {
  return api.request(`/api/servergroups/${id}`, { method: 'DELETE', query: { o: zoneId, internal: 1 } });
}
