import {
  ZBatch,
  ZBatchAcceptResult,
  ZBatchIssueList,
  ZBatchList,
  type Batch,
  type RemediationType,
} from '@patchwell/core/remediation/batches.schema';
import { ZScannerFormatList, type ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import {
  ZTask,
  ZTaskExecuteResult,
  ZTaskJobList,
  ZTaskList,
  type Task,
  type TaskActionBody,
  type TaskExecuteBody,
} from '@patchwell/core/remediation/tasks.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, encodeQuery, type QueryValue } from '../../api/client';
import { uploadFile, type UploadProgress } from '../../api/upload';

/**
 * Task and batch calls (REMEDIATION.md routes; spec B section 7). The zone is in the path
 * (`/api/orgs/{orgId}/tasks/...`) and, as everywhere, in `o`.
 */
export const taskKeys = {
  all: ['tasks'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['tasks', zoneId, 'list', query] as const,
  detail: (zoneId: number, id: number) => ['tasks', zoneId, 'detail', id] as const,
  jobs: (zoneId: number, id: number, query: Record<string, QueryValue>) =>
    ['tasks', zoneId, 'detail', id, 'jobs', query] as const,
};

export const batchKeys = {
  all: ['batches'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['batches', zoneId, 'list', query] as const,
  detail: (zoneId: number, id: number) => ['batches', zoneId, 'detail', id] as const,
  children: (zoneId: number, id: number, child: string, query: Record<string, QueryValue>) =>
    ['batches', zoneId, 'detail', id, child, query] as const,
  formats: (zoneId: number, type: RemediationType) => ['batch-formats', zoneId, type] as const,
};

/** Lists and pages whose rows are still changing (a batch building, a task running) refresh this often. */
export const POLL_MS = 2_000;

const tasksPath = (zoneId: number) => `/api/orgs/${zoneId}/tasks`;
const batchesPath = (zoneId: number) => `/api/orgs/${zoneId}/tasks/batches`;

const isTaskOpen = (t: Pick<Task, 'status'>) => t.status === 'in_progress';
const isBatchBuilding = (b: Pick<Batch, 'status'>) => b.status === 'building';

// --- tasks ---

/** `GET /api/orgs/{orgId}/tasks?limit&page&sort&status:equals&severity:equals&source:equals&batch_id`; refreshes while a task runs. */
export function useTasks(zoneId: number, query: Record<string, QueryValue>, enabled = true) {
  return useQuery({
    queryKey: taskKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request(tasksPath(zoneId), { query: { o: zoneId, ...query }, schema: ZTaskList, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some(isTaskOpen) ? POLL_MS : false),
    enabled,
  });
}

/** `GET /api/orgs/{orgId}/tasks/{taskId}`; refreshes while the task runs. */
export function useTask(zoneId: number, id: number) {
  return useQuery({
    queryKey: taskKeys.detail(zoneId, id),
    queryFn: ({ signal }) => api.request(`${tasksPath(zoneId)}/${id}`, { query: { o: zoneId }, schema: ZTask, signal }),
    refetchInterval: (q) => (q.state.data && isTaskOpen(q.state.data) ? POLL_MS : false),
    meta: { onError: 'none' },
  });
}

/**
 * `GET /api/orgs/{orgId}/tasks/{taskId}/jobs?page&limit&status`; refreshes with its task while it
 * runs, and once more when the task is found done: the task's read can come after the jobs'
 * last one, which then still shows the jobs that finished since as waiting.
 */
export function useTaskJobs(zoneId: number, id: number, query: Record<string, QueryValue>, isRunning: boolean) {
  const jobs = useQuery({
    queryKey: taskKeys.jobs(zoneId, id, query),
    queryFn: ({ signal }) =>
      api.request(`${tasksPath(zoneId)}/${id}/jobs`, { query: { o: zoneId, ...query }, schema: ZTaskJobList, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (isRunning || q.state.data?.data.some((j) => j.status === 'in_progress') ? POLL_MS : false),
  });
  const { refetch } = jobs;
  const wasRunning = useRef(isRunning);
  useEffect(() => {
    if (wasRunning.current && !isRunning) void refetch();
    wasRunning.current = isRunning;
  }, [isRunning, refetch]);
  return jobs;
}

/** `PATCH /api/orgs/{orgId}/tasks/{taskId}` with `{action}` (cancel or execute). */
export function actOnTask(zoneId: number, id: number, body: TaskActionBody) {
  return api.request(`${tasksPath(zoneId)}/${id}`, { method: 'PATCH', query: { o: zoneId }, body });
}

/** `POST /api/orgs/{orgId}/tasks/execute`: the tasks named, or every pending task of a batch, in one request. */
export function executeTasks(zoneId: number, body: TaskExecuteBody) {
  return api.request(`${tasksPath(zoneId)}/execute`, {
    method: 'POST',
    query: { o: zoneId },
    body,
    schema: ZTaskExecuteResult,
  });
}

/** `DELETE /api/orgs/{orgId}/tasks` with `{ids}`. */
export function deleteTasks(zoneId: number, ids: number[]) {
  return api.request(tasksPath(zoneId), { method: 'DELETE', query: { o: zoneId }, body: { ids } });
}

/** The per-device remediation status CSV of a task (`GET .../tasks/{taskId}/csv`), as a download link. */
export function taskCsvHref(zoneId: number, id: number): string {
  return `${tasksPath(zoneId)}/${id}/csv?${encodeQuery({ o: zoneId })}`;
}

// --- batches ---

/** `GET /api/orgs/{orgId}/tasks/batches?status:not_in&type:equals&page&limit`; refreshes while one builds. */
export function useBatches(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: batchKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request(batchesPath(zoneId), { query: { o: zoneId, ...query }, schema: ZBatchList, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some(isBatchBuilding) ? POLL_MS : false),
  });
}

/** `GET /api/orgs/{orgId}/tasks/batches/{batchId}`; refreshes while the batch builds. */
export function useBatch(zoneId: number, id: number) {
  return useQuery({
    queryKey: batchKeys.detail(zoneId, id),
    queryFn: ({ signal }) =>
      api.request(`${batchesPath(zoneId)}/${id}`, { query: { o: zoneId }, schema: ZBatch, signal }),
    refetchInterval: (q) => (q.state.data && isBatchBuilding(q.state.data) ? POLL_MS : false),
    meta: { onError: 'none' },
  });
}

/** `GET /api/orgs/{orgId}/tasks/batches/{batchId}/issues?page&limit&issue`. */
export function useBatchIssues(zoneId: number, id: number, query: Record<string, QueryValue>, enabled = true) {
  return useQuery({
    queryKey: batchKeys.children(zoneId, id, 'issues', query),
    queryFn: ({ signal }) =>
      api.request(`${batchesPath(zoneId)}/${id}/issues`, {
        query: { o: zoneId, ...query },
        schema: ZBatchIssueList,
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** `POST .../batches/{batchId}/accept`: the batch and the tasks it created. */
export function acceptBatch(zoneId: number, id: number) {
  return api.request(`${batchesPath(zoneId)}/${id}/accept`, {
    method: 'POST',
    query: { o: zoneId },
    schema: ZBatchAcceptResult,
  });
}

/** `POST .../batches/{batchId}/reject`. */
export function rejectBatch(zoneId: number, id: number) {
  return api.request(`${batchesPath(zoneId)}/${id}/reject`, { method: 'POST', query: { o: zoneId } });
}

/** The batch's CSV (`GET .../batches/{id}/csv?o`), as a download link. Not offered while building. */
export function batchCsvHref(zoneId: number, id: number): string {
  return `${batchesPath(zoneId)}/${id}/csv?${encodeQuery({ o: zoneId })}`;
}

/** `GET /api/orgs/{orgId}/tasks/{type}/batches/formats?o`: each provider's expected columns and an example. */
export function useScannerFormats(zoneId: number, enabled: boolean, type: RemediationType = 'patch') {
  return useQuery({
    queryKey: batchKeys.formats(zoneId, type),
    queryFn: ({ signal }) =>
      api.request(`/api/orgs/${zoneId}/tasks/${type}/batches/formats`, {
        query: { o: zoneId },
        schema: ZScannerFormatList,
        signal,
      }),
    staleTime: Infinity,
    enabled,
    meta: { onError: 'none' },
  });
}

/**
 * `POST /api/orgs/{orgId}/tasks/{type}/batches/upload?o&source` (multipart field `file`):
 * the new batch, still building. Reports progress and stops on `signal`; no global loader.
 */
export function uploadScan(
  zoneId: number,
  source: ScannerSource,
  file: File,
  options: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal; type?: RemediationType } = {},
) {
  return uploadFile(`/api/orgs/${zoneId}/tasks/${options.type ?? 'patch'}/batches/upload`, {
    query: { o: zoneId, source },
    file,
    schema: ZBatch,
    onProgress: options.onProgress,
    signal: options.signal,
  });
}
