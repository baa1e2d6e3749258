import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZHostImportList, ZHostImportResult, type HostImportResult } from '@patchwell/core/devices/host-imports.schema';
import { api } from '../../../api/client';

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
 * The multipart body of one file part, built by hand: the same bytes a browser's FormData
 * sends, and it also works where fetch cannot stream a FormData's file (jsdom in tests).
 */
async function multipartOf(file: File, boundary: string): Promise<Uint8Array<ArrayBuffer>> {
  const name = file.name.replace(/["\r\n]/g, '_');
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: ${file.type || 'text/csv'}\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const content = new Uint8Array(await file.arrayBuffer());
  const body = new Uint8Array(head.length + content.length + tail.length);
  body.set(head, 0);
  body.set(content, head.length);
  body.set(tail, head.length + content.length);
  return body;
}

/**
 * `POST /api/servers/imports?o=&dry_run=` with the file as multipart/form-data: the
 * rows' results (dry run), or the import.
 */
export async function uploadHostsCsv(zoneId: number, file: File, isDryRun: boolean): Promise<HostImportResult> {
  // Not crypto.randomUUID: it needs a secure context, and consoles on plain-HTTP LAN addresses exist.
  const boundary = `----patchwell-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  return api.request('/api/servers/imports', {
    method: 'POST',
    query: { o: zoneId, dry_run: isDryRun },
    rawBody: { data: await multipartOf(file, boundary), contentType: `multipart/form-data; boundary=${boundary}` },
    schema: ZHostImportResult,
  });
}
