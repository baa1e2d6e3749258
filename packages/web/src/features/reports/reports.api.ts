import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ZNeedsAttentionReport,
  ZOverview,
  ZPatchHistory,
  ZPrepatchReport,
} from '@patchwell/core/reports/reports.schema';
import { ZPolicyResultsDetail, ZPolicyResultsList } from '@patchwell/core/reports/policy-results.schema';
import {
  ZDataExtract,
  ZDataExtractList,
  type CreateDataExtractBody,
  type DataExtract,
} from '@patchwell/core/reports/extracts.schema';
import { api, encodeQuery, type QueryValue } from '../../api/client';

/** The Reports pages' calls (`/api/reports/…`). Every call carries the zone as `o`. */
export const reportKeys = {
  all: ['reports'] as const,
  overview: (zoneId: number, startDate: string | undefined) => ['reports', zoneId, 'overview', startDate] as const,
  patchHistory: (zoneId: number, query: Record<string, QueryValue>) =>
    ['reports', zoneId, 'patch-history', query] as const,
  prepatch: (zoneId: number, query: Record<string, QueryValue>) => ['reports', zoneId, 'prepatch', query] as const,
  needsAttention: (zoneId: number, query: Record<string, QueryValue>) =>
    ['reports', zoneId, 'needs-attention', query] as const,
  policyResults: (zoneId: number, query: Record<string, QueryValue>) =>
    ['reports', zoneId, 'policy-results', query] as const,
  policyResult: (zoneId: number, uuid: string) => ['reports', zoneId, 'policy-results', uuid] as const,
  extracts: (zoneId: number, query: Record<string, QueryValue>) => ['reports', zoneId, 'extracts', query] as const,
};

/** While an extract is queued or running, the list refreshes this often (its progress). */
export const EXTRACT_POLL_MS = 2_000;

/** `GET /api/reports/overview?o&startDate` (the console sends `internal=1`, as the spec's call does). */
export function useOverview(zoneId: number, startDate: string | undefined) {
  return useQuery({
    queryKey: reportKeys.overview(zoneId, startDate),
    queryFn: ({ signal }) =>
      api.request('/api/reports/overview', {
        query: { o: zoneId, internal: 1, startDate },
        schema: ZOverview,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/reports/patch-history?o&startDate&endDate&outcome&page&limit`. */
export function usePatchHistory(zoneId: number, query: Record<string, QueryValue>, enabled: boolean) {
  return useQuery({
    queryKey: reportKeys.patchHistory(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/reports/patch-history', { query: { o: zoneId, ...query }, schema: ZPatchHistory, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** `GET /api/reports/prepatch?o&page&limit&severity&age&search&sort`. */
export function usePrepatch(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: reportKeys.prepatch(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/reports/prepatch', { query: { o: zoneId, ...query }, schema: ZPrepatchReport, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/reports/needs-attention?o&page&limit&compliance&search&sort`. */
export function useNeedsAttention(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: reportKeys.needsAttention(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/reports/needs-attention', {
        query: { o: zoneId, ...query },
        schema: ZNeedsAttentionReport,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** A report table's CSV export (`/api/reports/{report}/csv`), as a download link with the table's filters. */
export function reportCsvHref(
  report: 'prepatch' | 'needs-attention',
  zoneId: number,
  query: Record<string, QueryValue>,
) {
  return `/api/reports/${report}/csv?${encodeQuery({ o: zoneId, ...query })}`;
}

/** `GET /api/reports/policy-results?o&page&limit&search&sort`. */
export function usePolicyResults(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: reportKeys.policyResults(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/reports/policy-results', {
        query: { o: zoneId, ...query },
        schema: ZPolicyResultsList,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/reports/policy-results/{policyUuid}?o`. */
export function usePolicyResult(zoneId: number, policyUuid: string) {
  return useQuery({
    queryKey: reportKeys.policyResult(zoneId, policyUuid),
    queryFn: ({ signal }) =>
      api.request(`/api/reports/policy-results/${encodeURIComponent(policyUuid)}`, {
        query: { o: zoneId },
        schema: ZPolicyResultsDetail,
        signal,
      }),
    meta: { onError: 'none' },
  });
}

const isOpen = (e: DataExtract) => e.status === 'queued' || e.status === 'running';

/** `GET /api/reports/data-extracts?o&page&limit`; polls while one of them is being built. */
export function useDataExtracts(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: reportKeys.extracts(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/reports/data-extracts', {
        query: { o: zoneId, ...query },
        schema: ZDataExtractList,
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some(isOpen) ? EXTRACT_POLL_MS : false),
  });
}

/** `POST /api/reports/data-extracts?o`: queues an extract; answers it. */
export function requestDataExtract(zoneId: number, body: CreateDataExtractBody) {
  return api.request('/api/reports/data-extracts', {
    method: 'POST',
    query: { o: zoneId },
    body,
    schema: ZDataExtract,
  });
}

/** A ready extract's CSV (`GET /api/reports/data-extracts/{id}/csv`), as a download link. */
export function dataExtractCsvHref(zoneId: number, id: number): string {
  return `/api/reports/data-extracts/${id}/csv?${encodeQuery({ o: zoneId })}`;
}
