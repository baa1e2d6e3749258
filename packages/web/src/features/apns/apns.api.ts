import {
  APNS_FILE_BYTES_MAX,
  APNS_TEXTS,
  ZApnsSettings,
  type UploadApnsCertificateBody,
} from '@patchwell/core/apns/apns.schema';
import { useQuery } from '@tanstack/react-query';
import { api, encodeQuery } from '../../api/client';

/** The zone's APNS settings (Organization.manage and the view-configurations feature). */
export const apnsKeys = {
  all: ['apns'] as const,
  settings: (zoneId: number) => ['apns', zoneId] as const,
};

/** `GET /api/apns?o=`. */
export function useApnsSettings(zoneId: number) {
  return useQuery({
    queryKey: apnsKeys.settings(zoneId),
    queryFn: ({ signal }) => api.request('/api/apns', { query: { o: zoneId }, schema: ZApnsSettings, signal }),
  });
}

/** `POST /api/apns/csr?o=`: a request from the current certificate's key, else a new one. */
export function createApnsCsr(zoneId: number, newKey = false) {
  return api.request('/api/apns/csr', {
    method: 'POST',
    query: { o: zoneId },
    body: { new_key: newKey },
    schema: ZApnsSettings,
  });
}

/** The pending request as a file (`GET /api/apns/csr.pem?o=`), as a download link. */
export function apnsCsrHref(zoneId: number): string {
  return `/api/apns/csr.pem?${encodeQuery({ o: zoneId })}`;
}

/** `PUT /api/apns/certificate?o=`. */
export function uploadApnsCertificate(zoneId: number, body: UploadApnsCertificateBody) {
  return api.request('/api/apns/certificate', { method: 'PUT', query: { o: zoneId }, body, schema: ZApnsSettings });
}

/** `DELETE /api/apns?o=`. */
export function deleteApnsSettings(zoneId: number) {
  return api.request('/api/apns', { method: 'DELETE', query: { o: zoneId } });
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `.p12` and `.pfx` files are PKCS#12 bundles, which carry a password. */
export const isPkcs12Name = (name: string): boolean => /\.(p12|pfx)$/i.test(name);

/**
 * The upload body of a chosen file, read whole: PEM text when it is one, else its bytes in
 * base64 as PKCS#12 (by its name) or DER. A file over the limit is refused before sending.
 */
export async function uploadBodyOf(
  file: Blob & { name: string },
  password: string,
): Promise<UploadApnsCertificateBody | { problem: string }> {
  if (file.size > APNS_FILE_BYTES_MAX) return { problem: APNS_TEXTS.fileTooLarge };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const pw = password ? { password } : {};
  if (!isPkcs12Name(file.name) && text.includes('-----BEGIN ')) return { format: 'pem', data: text, ...pw };
  return { format: isPkcs12Name(file.name) ? 'pkcs12' : 'der', data: base64(bytes), ...pw };
}
