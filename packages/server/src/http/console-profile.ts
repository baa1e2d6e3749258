import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_PROFILE_ELEMENT_ID } from '@patchwell/core/constants';
import type { Config } from '../config';
import { readSessionToken } from '../modules/auth/cookie';

/**
 * The signed-in user's profile as a data block for a console page, or undefined without a
 * valid session. A page opened by address otherwise asks for it once its scripts have run
 * (one more round trip before the first paint); sent with the page, the console draws the
 * shell as soon as its scripts are in (web/src/app/session.ts reads it once).
 *
 * The profile is the answer of `GET /api/users/self?o=` to the page's own request, asked
 * through the app itself: the same session check, zone rule and shape as the API, nothing
 * here to keep in step with it. `o` (or `org`) is the zone the address asks for, as the
 * console would send it; an answer other than 200 (no session, expired, a malformed zone)
 * leaves the page without a profile and the console asks as before.
 */
export async function profileDataBlock(
  app: FastifyInstance,
  config: Pick<Config, 'isHttps'>,
  request: FastifyRequest,
): Promise<string | undefined> {
  if (!readSessionToken(request, config)) return undefined;
  const query = request.query as Record<string, unknown>;
  const zone = [query.o, query.org].find((v): v is string => typeof v === 'string' && v !== '');
  const answer = await app.inject({
    method: 'GET',
    url: '/api/users/self',
    query: zone === undefined ? {} : { o: zone },
    headers: {
      cookie: request.headers.cookie ?? '',
      accept: 'application/json',
      ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
    },
    remoteAddress: request.ip,
  });
  if (answer.statusCode !== 200) return undefined;
  const o = zone === undefined ? null : Number(zone);
  return jsonDataBlock(CONSOLE_PROFILE_ELEMENT_ID, `{"o":${JSON.stringify(o)},"profile":${answer.body}}`);
}

/** JSON in an HTML data block: `<` escaped so no text in it (a user's name) can close the element. */
export function jsonDataBlock(id: string, json: string): string {
  return `<script type="application/json" id="${id}">${json.replaceAll('<', '\\u003c')}</script>`;
}
