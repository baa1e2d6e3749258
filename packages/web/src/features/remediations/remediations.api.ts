import {
  ZBatchSolutionList,
  ZBatchUnknownHostList,
  ZBatchVulnerabilityList,
} from '@patchwell/core/remediation/batches.schema';
import {
  ZCveDetail,
  ZCveSummary,
  ZRemediationDeadlines,
  ZZoneCveList,
  type CveExceptionBody,
  type RemediationDeadlines,
} from '@patchwell/core/remediation/cves.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, encodeQuery, type QueryValue } from '../../api/client';
import { batchKeys } from '../tasks/tasks.api';

/** The remediations view's calls (REMEDIATION.md "CVE view" and the batch children). */
export const cveKeys = {
  all: ['cves'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['cves', zoneId, 'list', query] as const,
  summary: (zoneId: number) => ['cves', zoneId, 'summary'] as const,
  detail: (zoneId: number, cve: string) => ['cves', zoneId, 'detail', cve] as const,
  deadlines: (zoneId: number) => ['cves', zoneId, 'deadlines'] as const,
};

const org = (zoneId: number) => `/api/orgs/${zoneId}`;

// --- a batch's children (vulnerabilities, solutions, unknown hosts) ---

function childQuery(
  zoneId: number,
  batchId: number,
  child: string,
  query: Record<string, QueryValue>,
  enabled: boolean,
) {
  return {
    queryKey: batchKeys.children(zoneId, batchId, child, query),
    path: `${org(zoneId)}/tasks/batches/${batchId}/${child}`,
    query: { o: zoneId, ...query },
    placeholderData: keepPreviousData,
    enabled,
  };
}

/** `GET .../tasks/batches/{batchId}/vulnerabilities?page&limit`. */
export function useBatchVulnerabilities(
  zoneId: number,
  batchId: number,
  query: Record<string, QueryValue>,
  enabled = true,
) {
  const { path, query: q, ...options } = childQuery(zoneId, batchId, 'vulnerabilities', query, enabled);
  return useQuery({
    ...options,
    queryFn: ({ signal }) => api.request(path, { query: q, schema: ZBatchVulnerabilityList, signal }),
  });
}

/** `GET .../tasks/batches/{batchId}/solutions?page&limit`. */
export function useBatchSolutions(zoneId: number, batchId: number, query: Record<string, QueryValue>, enabled = true) {
  const { path, query: q, ...options } = childQuery(zoneId, batchId, 'solutions', query, enabled);
  return useQuery({
    ...options,
    queryFn: ({ signal }) => api.request(path, { query: q, schema: ZBatchSolutionList, signal }),
  });
}

/** `GET .../tasks/batches/{batchId}/unknown-hosts?page&limit`. */
export function useBatchUnknownHosts(
  zoneId: number,
  batchId: number,
  query: Record<string, QueryValue>,
  enabled = true,
) {
  const { path, query: q, ...options } = childQuery(zoneId, batchId, 'unknown-hosts', query, enabled);
  return useQuery({
    ...options,
    queryFn: ({ signal }) => api.request(path, { query: q, schema: ZBatchUnknownHostList, signal }),
  });
}

// --- the zone's CVEs ---

/** `GET /api/orgs/{orgId}/cves?page&limit&sort&severity&search&overdue`. */
export function useCves(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: cveKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request(`${org(zoneId)}/cves`, { query: { o: zoneId, ...query }, schema: ZZoneCveList, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The CVE list as CSV (`GET /api/orgs/{orgId}/cves/csv` with the list's filters), as a download link. */
export function cvesCsvHref(zoneId: number, filters: Record<string, QueryValue>): string {
  return `${org(zoneId)}/cves/csv?${encodeQuery({ o: zoneId, ...filters })}`;
}

/** `GET /api/orgs/{orgId}/cves/summary`: open CVEs and overdue devices by severity. */
export function useCveSummary(zoneId: number) {
  return useQuery({
    queryKey: cveKeys.summary(zoneId),
    queryFn: ({ signal }) =>
      api.request(`${org(zoneId)}/cves/summary`, { query: { o: zoneId }, schema: ZCveSummary, signal }),
    meta: { onError: 'none' },
  });
}

/** `GET /api/orgs/{orgId}/cves/{cve}?page&limit`: a page of its devices and why each matched, its exceptions and history. */
export function useCve(zoneId: number, cve: string, paging: Record<string, QueryValue>) {
  return useQuery({
    queryKey: [...cveKeys.detail(zoneId, cve), paging],
    queryFn: ({ signal }) =>
      api.request(`${org(zoneId)}/cves/${encodeURIComponent(cve)}`, {
        query: { o: zoneId, ...paging },
        schema: ZCveDetail,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { onError: 'none' },
  });
}

/** `POST /api/orgs/{orgId}/cves/{cve}/exceptions`: a false positive or an accepted risk, for one device or the zone. */
export function createCveException(zoneId: number, cve: string, body: CveExceptionBody) {
  return api.request(`${org(zoneId)}/cves/${encodeURIComponent(cve)}/exceptions`, {
    method: 'POST',
    query: { o: zoneId },
    body,
  });
}

/** `DELETE /api/orgs/{orgId}/cve-exceptions/{exceptionId}`: revoke a decision. */
export function revokeCveException(zoneId: number, exceptionId: number) {
  return api.request(`${org(zoneId)}/cve-exceptions/${exceptionId}`, { method: 'DELETE', query: { o: zoneId } });
}

/** `GET /api/orgs/{orgId}/remediation-deadlines`: days to remediate by severity. */
export function useRemediationDeadlines(zoneId: number) {
  return useQuery({
    queryKey: cveKeys.deadlines(zoneId),
    queryFn: ({ signal }) =>
      api.request(`${org(zoneId)}/remediation-deadlines`, {
        query: { o: zoneId },
        schema: ZRemediationDeadlines,
        signal,
      }),
    meta: { onError: 'none' },
  });
}

/** `PUT /api/orgs/{orgId}/remediation-deadlines` (Task.modify). */
export function saveRemediationDeadlines(zoneId: number, body: RemediationDeadlines) {
  return api.request(`${org(zoneId)}/remediation-deadlines`, { method: 'PUT', query: { o: zoneId }, body });
}
