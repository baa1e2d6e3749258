import type { FastifyRequest } from 'fastify';
import { isLoopbackUrl } from '@patchwell/core/devices/devices.schema';
import type { Config } from '../config';

/**
 * The origin links in e-mails point at (unlock, invitation): `PATCHWELL_PUBLIC_URL` when set.
 * Without it, the origin the request came to, but only when that is this machine (localhost,
 * 127.0.0.0/8, ::1: development on loopback); otherwise null. The `Host` header is the
 * client's to choose, so a link built from any other Host could point a mailed token at a
 * site of the sender's choosing.
 */
export function linkOrigin(request: FastifyRequest, config: Pick<Config, 'publicUrl'>): string | null {
  if (config.publicUrl) return config.publicUrl;
  const origin = `${request.protocol}://${request.host}`;
  return isLoopbackUrl(origin) ? origin : null;
}
