import type { DeviceFiltersPreviewBody } from '@patchwell/core/policies/device-filters.schema';
import {
  ZCloneJob,
  type ClonePolicyBody,
  type CreatePolicyBody,
  type PolicyActionBody,
} from '@patchwell/core/policies/policies.schema';
import { ZInstallerFile, type InstallerFile } from '@patchwell/core/policies/policy-configuration.schema';
import { ZApproval, ZPolicyStatsList } from '@patchwell/core/policies/policy-runs.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type QueryValue } from '../../api/client';
import { multipartBody } from '../../api/multipart';
import {
  ZPolicyActionResultLenient,
  ZPolicyRunDetailLenient,
  ZPolicyRunListLenient,
  ZPolicyWithCompliance,
  ZPolicyWithComplianceList,
  ZDevicePolicyList,
  ZManualApprovalList,
  ZPolicyResultList,
  ZPreviewList,
  type PolicyRunDetailLenient as PolicyRunDetail,
} from '@patchwell/core/policies/policy-responses.schema';

/** Policy calls (packages/server/src/modules/policies). Every call carries the zone as `o`. */
export const policyKeys = {
  all: ['policies'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['policies', zoneId, 'list', query] as const,
  stats: (zoneId: number) => ['policies', zoneId, 'stats'] as const,
  detail: (zoneId: number, id: number) => ['policies', zoneId, 'detail', id] as const,
  runs: (zoneId: number, id: number, query: Record<string, QueryValue>) =>
    ['policies', zoneId, 'detail', id, 'runs', query] as const,
  run: (zoneId: number, id: number, runId: number) => ['policies', zoneId, 'detail', id, 'run', runId] as const,
  results: (zoneId: number, id: number, runId: number, query: Record<string, QueryValue>) =>
    ['policies', zoneId, 'detail', id, 'run', runId, 'results', query] as const,
  preview: (zoneId: number, body: DeviceFiltersPreviewBody) => ['policies', zoneId, 'preview', body] as const,
  cloneJob: (zoneId: number, jobId: string) => ['policies', zoneId, 'clone-job', jobId] as const,
  approvals: (zoneId: number) => ['approvals', zoneId] as const,
  device: (zoneId: number, deviceId: number) => ['policies', zoneId, 'device', deviceId] as const,
};

/** The execution banner, the clone dialog and lists with open runs or results poll this often. */
export const POLL_MS = 2_000;
const RUN_DONE = new Set(['completed', 'error', 'timeout']);

/** Run and result states that still change without anyone doing anything. */
const OPEN_STATES = new Set(['created', 'queued', 'running', 'pending', 'in_progress']);

/** A list refreshes itself ({@link POLL_MS}) while any state it shows is open, and stops once all are final. */
export function pollWhileOpen(states: Iterable<string | null | undefined>): number | false {
  for (const state of states) if (state && OPEN_STATES.has(state)) return POLL_MS;
  return false;
}

/** A run's own status and the statuses its results are in (those with at least one device). */
export function runStates(run: Pick<PolicyRunDetail, 'status' | 'results'>): string[] {
  const counts: Record<string, number | undefined> = run.results;
  return [run.status, ...Object.entries(counts).flatMap(([state, n]) => (n ? [state] : []))];
}

/** `GET /api/policies?o=&page=&limit=&sort=&type=&status=&search=`. */
export function usePolicies(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: policyKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/policies', { query: { o: zoneId, ...query }, schema: ZPolicyWithComplianceList, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/policystats?o=`: devices compliant, needing attention and pending per policy. */
export function usePolicyStats(zoneId: number) {
  return useQuery({
    queryKey: policyKeys.stats(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/policystats', { query: { o: zoneId }, schema: ZPolicyStatsList, signal }),
    meta: { onError: 'none' },
  });
}

/** `GET /api/policies/{id}?o=`. */
export function usePolicy(zoneId: number, id: number, enabled = true) {
  return useQuery({
    queryKey: policyKeys.detail(zoneId, id),
    queryFn: ({ signal }) =>
      api.request(`/api/policies/${id}`, { query: { o: zoneId }, schema: ZPolicyWithCompliance, signal }),
    enabled,
    meta: { onError: 'none' },
  });
}

/** `POST /api/policies?o=` (create on the body's type). */
export function createPolicy(zoneId: number, body: CreatePolicyBody) {
  return api.request('/api/policies', { method: 'POST', query: { o: zoneId }, body, schema: ZPolicyWithCompliance });
}

/** `PUT /api/policies/{id}?o=` (modify): the whole policy. */
export function updatePolicy(zoneId: number, id: number, body: CreatePolicyBody) {
  return api.request(`/api/policies/${id}`, {
    method: 'PUT',
    query: { o: zoneId },
    body: { ...body, id },
    schema: ZPolicyWithCompliance,
  });
}

/** `DELETE /api/policies/{id}?o=`. */
export function deletePolicy(zoneId: number, id: number) {
  return api.request(`/api/policies/${id}`, { method: 'DELETE', query: { o: zoneId } });
}

/** `POST /api/policies/{id}/action?o=`: run now; answers the run it created. */
export function runPolicy(zoneId: number, id: number, body: PolicyActionBody = { action: 'remediateAll' }) {
  return api.request(`/api/policies/${id}/action`, {
    method: 'POST',
    query: { o: zoneId },
    body,
    schema: ZPolicyActionResultLenient,
  });
}

/** `POST /api/policies/{id}/clone?o=`: starts a clone job. */
export function clonePolicy(zoneId: number, id: number, body: ClonePolicyBody) {
  return api.request(`/api/policies/${id}/clone`, { method: 'POST', query: { o: zoneId }, body, schema: ZCloneJob });
}

/** `GET /api/policies/clone-jobs/{jobId}?o=`, polled until the job completes or fails. */
export function useCloneJob(zoneId: number, jobId: string | null) {
  return useQuery({
    queryKey: policyKeys.cloneJob(zoneId, jobId ?? ''),
    queryFn: ({ signal }) =>
      api.request(`/api/policies/clone-jobs/${jobId}`, { query: { o: zoneId }, schema: ZCloneJob, signal }),
    enabled: jobId !== null,
    refetchInterval: (q) =>
      q.state.data?.status === 'completed' || q.state.data?.status === 'error' ? false : POLL_MS,
    meta: { onError: 'none' },
  });
}

/** `POST /api/policies/preview?o=`: the devices a draft's groups and filters hit. */
export function usePolicyPreview(zoneId: number, body: DeviceFiltersPreviewBody | null) {
  return useQuery({
    queryKey: policyKeys.preview(zoneId, body ?? { server_groups: [], device_filters: [] }),
    queryFn: ({ signal }) =>
      api.request('/api/policies/preview', {
        method: 'POST',
        query: { o: zoneId },
        body,
        schema: ZPreviewList,
        signal,
      }),
    enabled: body !== null,
    meta: { onError: 'none' },
  });
}

/** `GET /api/policies/{id}/runs?o=&page=&limit=`: runs of the last 30 days, newest first. */
export function usePolicyRuns(zoneId: number, id: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: policyKeys.runs(zoneId, id, query),
    queryFn: ({ signal }) =>
      api.request(`/api/policies/${id}/runs`, {
        query: { o: zoneId, ...query },
        schema: ZPolicyRunListLenient,
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.status === 'error' ? false : pollWhileOpen(q.state.data?.data.flatMap(runStates) ?? []),
  });
}

/**
 * `GET /api/policies/{id}/runs/{runId}?o=`, polled until the run completes, fails or times
 * out. Failures are shown by the banner itself ('There was an issue retrieving…').
 */
export function usePolicyRun(zoneId: number, id: number, runId: number | null) {
  return useQuery({
    queryKey: policyKeys.run(zoneId, id, runId ?? 0),
    queryFn: ({ signal }) =>
      api.request(`/api/policies/${id}/runs/${runId}`, {
        query: { o: zoneId },
        schema: ZPolicyRunDetailLenient,
        signal,
      }),
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.status === 'error' || RUN_DONE.has(q.state.data?.status ?? '') ? false : POLL_MS),
    meta: { onError: 'none' },
  });
}

/** `GET /api/policies/{id}/runs/{runId}/results?o=&page=&limit=`: per-device results with output. */
export function useRunResults(zoneId: number, id: number, runId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: policyKeys.results(zoneId, id, runId, query),
    queryFn: ({ signal }) =>
      api.request(`/api/policies/${id}/runs/${runId}/results`, {
        query: { o: zoneId, ...query },
        schema: ZPolicyResultList,
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.status === 'error' ? false : pollWhileOpen(q.state.data?.data.map((r) => r.status) ?? []),
  });
}

/** `GET /api/policy-manual-approval?o=`: every manual-approval policy with its pending patches. */
export function useManualApprovals(zoneId: number) {
  return useQuery({
    queryKey: policyKeys.approvals(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/policy-manual-approval', { query: { o: zoneId }, schema: ZManualApprovalList, signal }),
  });
}

/** `PUT /api/approvals/{id}?o=` (Approval.create): true approves, false rejects. */
export function decideApproval(zoneId: number, id: number, approve: boolean) {
  return api.request(`/api/approvals/${id}`, {
    method: 'PUT',
    query: { o: zoneId },
    body: { manual_approval: approve },
    schema: ZApproval,
  });
}

/** `GET /api/servers/{id}/policies?o=`: a device's policies, its standing and last result. */
export function useDevicePolicies(zoneId: number, deviceId: number) {
  return useQuery({
    queryKey: policyKeys.device(zoneId, deviceId),
    queryFn: ({ signal }) =>
      api.request(`/api/servers/${deviceId}/policies`, { query: { o: zoneId }, schema: ZDevicePolicyList, signal }),
    // A run on this device shows its result here when it arrives.
    refetchInterval: (q) =>
      q.state.status === 'error' ? false : pollWhileOpen(q.state.data?.data.map((p) => p.result?.status) ?? []),
  });
}

/** Installers may be large: an upload gets far longer than the default minute. */
const UPLOAD_TIMEOUT_MS = 60 * 60_000;

/** `POST /api/policies/installers?o=`: uploads a required-software installer; answers the stored file. */
export async function uploadInstaller(zoneId: number, file: File): Promise<InstallerFile> {
  return api.request('/api/policies/installers', {
    method: 'POST',
    query: { o: zoneId },
    rawBody: await multipartBody(file, 'application/octet-stream'),
    schema: ZInstallerFile,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** `DELETE /api/policies/installers/{id}?o=`: 409 while a policy references it. */
export function deleteInstaller(zoneId: number, id: string) {
  return api.request(`/api/policies/installers/${encodeURIComponent(id)}`, { method: 'DELETE', query: { o: zoneId } });
}
