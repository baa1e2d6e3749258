import {
  ZCreatedRemoteSession,
  ZRemoteSession,
  ZRemoteSettings,
  ZRemoteTranscript,
  type PutRemoteSettingsBody,
  type RemoteSessionKind,
} from '@patchwell/core/remote/remote-sessions.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Remote control and shell calls (decision 0016). Every call carries the zone as `o`. */
export const remoteKeys = {
  settings: (zoneId: number) => ['remote', zoneId, 'settings'] as const,
  transcript: (zoneId: number, id: number) => ['remote', zoneId, 'transcript', id] as const,
};

/** `POST /api/servers/{id}/remote-sessions?o=`: the session and the tunnel's single-use token. */
export function createRemoteSession(zoneId: number, deviceId: number, kind: RemoteSessionKind) {
  return api.request(`/api/servers/${deviceId}/remote-sessions`, {
    method: 'POST',
    query: { o: zoneId },
    body: { kind },
    schema: ZCreatedRemoteSession,
  });
}

/** `GET /api/remote-sessions/{id}?o=`: its state and consent answer (polled while waiting). */
export function fetchRemoteSession(zoneId: number, id: number, signal?: AbortSignal) {
  return api.request(`/api/remote-sessions/${id}`, { query: { o: zoneId }, schema: ZRemoteSession, signal });
}

/** `POST /api/remote-sessions/{id}/end?o=`: closes both ends. */
export function endRemoteSession(zoneId: number, id: number) {
  return api.request(`/api/remote-sessions/${id}/end`, {
    method: 'POST',
    query: { o: zoneId },
    schema: ZRemoteSession,
  });
}

/** The tunnel's WebSocket URL on this page's origin (`ws:` or `wss:` as the page). */
export function tunnelUrl(
  tunnelPath: string,
  token: string,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${tunnelPath}?token=${encodeURIComponent(token)}`;
}

/** `GET /api/remote-sessions/{id}/transcript?o=`: what a shell session's device printed. */
export function useRemoteTranscript(zoneId: number, id: number | null) {
  return useQuery({
    queryKey: remoteKeys.transcript(zoneId, id ?? 0),
    queryFn: ({ signal }) =>
      api.request(`/api/remote-sessions/${id}/transcript`, { query: { o: zoneId }, schema: ZRemoteTranscript, signal }),
    enabled: id !== null,
  });
}

/** `GET /api/remote-settings?o=` (Endpoint.read). */
export function useRemoteSettings(zoneId: number, enabled = true) {
  return useQuery({
    queryKey: remoteKeys.settings(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/remote-settings', { query: { o: zoneId }, schema: ZRemoteSettings, signal }),
    enabled,
    meta: { onError: 'none' },
  });
}

/** `PUT /api/remote-settings?o=` (zone administrators). */
export function useSaveRemoteSettings(zoneId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PutRemoteSettingsBody) =>
      api.request('/api/remote-settings', { method: 'PUT', query: { o: zoneId }, body, schema: ZRemoteSettings }),
    onSuccess: (settings) => queryClient.setQueryData(remoteKeys.settings(zoneId), settings),
  });
}
