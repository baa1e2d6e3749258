import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZHostImportList, ZHostImportResult, type HostImportResult } from '@patchwell/core/devices/host-imports.schema';
import { api } from '../../../api/client';
import { multipartBody } from '../../../api/multipart';

/** Third-party import calls (docs/api/devices-agent-contract.md, "Host import"). */
export const hostImportKeys = {
  all: ['host-imports'] as const,
  awaiting: (zoneId: number) => ['host-imports', zoneId, 'awaiting'] as const,
};

/** Rows of the awaiting list the dialog shows (newest first). */
export const AWAITING_PAGE_SIZE = 50;

/** `GET /api/servers/imports?o=&status=awaiting_agent&limit=`. */
export function useAwaitingImports(zoneId: number, enabled: boolean) {
  return useQuery({
    queryKey: hostImportKeys.awaiting(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/servers/imports', {
        query: { o: zoneId, status: 'awaiting_agent', limit: AWAITING_PAGE_SIZE },
        schema: ZHostImportList,
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** `DELETE /api/servers/imports/{id}?o=`. */
export function removeHostImport(zoneId: number, id: number) {
  return api.request(`/api/servers/imports/${id}`, { method: 'DELETE', query: { o: zoneId } });
}

/**
 * `POST /api/servers/imports?o=&dry_run=` with the file as multipart/form-data: the
 * rows' results (dry run), or the import.
 */
export async function uploadHostsCsv(zoneId: number, file: File, isDryRun: boolean): Promise<HostImportResult> {
  return api.request('/api/servers/imports', {
    method: 'POST',
    query: { o: zoneId, dry_run: isDryRun },
    rawBody: await multipartBody(file, 'text/csv'),
    schema: ZHostImportResult,
  });
}
