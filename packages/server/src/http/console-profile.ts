import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_PROFILE_ELEMENT_ID } from '@patchwell/core/constants';
import type { Config } from '../config';
import { readSessionToken } from '../modules/auth/cookie';

/**
 * A signed-in page's user as the server read it: the data block the page carries, the answers
 * it holds, and a reader of the API as that user (for a page the server draws, console-render.ts).
 */
export type PageProfile = {
  block: string;
  profileJson: string;
  bannersJson: string;
  read: (url: string) => Promise<Response>;
};

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
export async function readPageProfile(
  app: FastifyInstance,
  config: Pick<Config, 'isHttps'>,
  request: FastifyRequest,
): Promise<PageProfile | undefined> {
  if (!readSessionToken(request, config)) return undefined;
  const query = request.query as Record<string, unknown>;
  const zone = [query.o, query.org].find((v): v is string => typeof v === 'string' && v !== '');
  const ask = (url: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: {
        cookie: request.headers.cookie ?? '',
        accept: 'application/json',
        ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      },
      remoteAddress: request.ip,
    });
  const [self, banners] = await Promise.all([
    ask(zone === undefined ? '/api/users/self' : `/api/users/self?o=${encodeURIComponent(zone)}`),
    ask('/api/banners'),
  ]);
  if (self.statusCode !== 200) return undefined;
  const o = zone === undefined ? null : Number(zone);
  const bannersJson = banners.statusCode === 200 ? banners.body : 'null';
  return {
    block: jsonDataBlock(
      CONSOLE_PROFILE_ELEMENT_ID,
      `{"o":${JSON.stringify(o)},"profile":${self.body},"banners":${bannersJson}}`,
    ),
    profileJson: self.body,
    bannersJson,
    read: async (url) => {
      const answer = await ask(url);
      // A body with a 204 or 304 is refused by Response.
      return new Response([204, 205, 304].includes(answer.statusCode) ? null : answer.rawPayload, {
        status: answer.statusCode,
        headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/octet-stream') },
      });
    },
  };
}

/** JSON in an HTML data block: `<` escaped so no text in it (a user's name) can close the element. */
export function jsonDataBlock(id: string, json: string): string {
  return `<script type="application/json" id="${id}">${json.replaceAll('<', '\\u003c')}</script>`;
}
