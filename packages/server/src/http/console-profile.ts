import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_PROFILE_ELEMENT_ID } from '@patchwell/core/constants';
import type { Config } from '../config';
import { readSessionToken } from '../modules/auth/cookie';

/**
 * The signed-in user's profile and the alert banners as a data block for a console page, or
 * undefined without a valid session. A page opened by address otherwise asks for them once its
 * scripts have run (one more round trip before the first paint, and under a phone's network
 * the banners' answer came before the page counted as painted); sent with the page, the console
 * draws the shell as soon as its scripts are in (web/src/app/page-profile.ts reads it once).
 *
 * The profile is the answer of `GET /api/users/self?o=` to the page's own request, and the
 * banners `GET /api/banners`'s, asked through the app itself: the same session check, zone rule
 * and shape as the API, nothing here to keep in step with it. `o` (or `org`) is the zone the
 * address asks for, as the console would send it; a profile answer other than 200 (no session,
 * expired, a malformed zone) leaves the page without a block and the console asks as before
 * (banners that fail are `null`: the console asks for them).
 */
export async function profileDataBlock(
  app: FastifyInstance,
  config: Pick<Config, 'isHttps'>,
  request: FastifyRequest,
): Promise<string | undefined> {
  if (!readSessionToken(request, config)) return undefined;
  const query = request.query as Record<string, unknown>;
  const zone = [query.o, query.org].find((v): v is string => typeof v === 'string' && v !== '');
  const ask = (url: string, query: Record<string, string>) =>
    app.inject({
      method: 'GET',
      url,
      query,
      headers: {
        cookie: request.headers.cookie ?? '',
        accept: 'application/json',
        ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      },
      remoteAddress: request.ip,
    });
  const [self, banners] = await Promise.all([
    ask('/api/users/self', zone === undefined ? {} : { o: zone }),
    ask('/api/banners', {}),
  ]);
  if (self.statusCode !== 200) return undefined;
  const o = zone === undefined ? null : Number(zone);
  const bannerList = banners.statusCode === 200 ? banners.body : 'null';
  return jsonDataBlock(
    CONSOLE_PROFILE_ELEMENT_ID,
    `{"o":${JSON.stringify(o)},"profile":${self.body},"banners":${bannerList}}`,
  );
}

/** JSON in an HTML data block: `<` escaped so no text in it (a user's name) can close the element. */
export function jsonDataBlock(id: string, json: string): string {
  return `<script type="application/json" id="${id}">${json.replaceAll('<', '\\u003c')}</script>`;
}
