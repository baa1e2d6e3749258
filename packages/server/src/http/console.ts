import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_BASE, CONSOLE_CONFIG_ELEMENT_ID } from '@patchwell/core/constants';
import type { ClientConfig } from '@patchwell/core/shell/config.schema';
import type { Config } from '../config';
import { jsonDataBlock, readPageProfile } from './console-profile';
import { drawableHtml, drawnPage, pageRenderer } from './console-render';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built · Patchwell</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The console is not built yet</h1>
<p>The API is running, but the web console has not been built. Run <code>npm run build</code>
in the repository, then restart the server.</p>
<p>The API reference is at <a href="/api/docs">/api/docs</a>.</p>
</body></html>`;

/**
 * Serves the built console (packages/web/dist) under /console/, Brotli or gzip copies made
 * at build time where the browser accepts them. Vite puts hashed files in
 * `assets/`, which never change, so browsers may keep them a year; `index.html` and other
 * unhashed files are revalidated on every load so a new release is picked up.
 * Returns the not-found handler for /console/* paths that are not files: the SPA's
 * index.html (deep links; for a first page, its copy that preloads the page's chunks, see
 * `readFirstPages`), a 404 for missing assets, or a "not built" page. Every page carries the
 * client configuration (`GET /api/shared/js/config`'s answer, the same for everyone), so no
 * page asks for it before its first paint; a signed-in page asked with a valid session cookie
 * also carries the user's profile (`console-profile.ts`), and the dashboard and the devices list
 * come drawn with the user's data (`console-render.ts`, decision 0030).
 */
export async function registerConsole(
  app: FastifyInstance,
  config: Pick<Config, 'isHttps' | 'webDistDir' | 'webSsrDir'>,
  clientConfig: ClientConfig,
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>> {
  const distDir = config.webDistDir;
  const built = existsSync(path.join(distDir, 'index.html'));
  const configBlock = jsonDataBlock(CONSOLE_CONFIG_ELEMENT_ID, JSON.stringify(clientConfig));
  const firstPages = built
    ? readFirstPages(distDir).map((page) => ({
        ...page,
        ...composed(page.text, configBlock),
        drawable: drawableHtml(page.text).replace('</body>', `${configBlock}</body>`),
      }))
    : [];
  const renderer = pageRenderer(config.webSsrDir, app.log);
  const index: Page = { signedOut: false, ...composed(built ? readHtml(distDir, 'index.html') : '', configBlock) };
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: CONSOLE_BASE,
      index: false,
      // The build writes .br and .gz copies (packages/web/scripts/precompress.mjs): sent as
      // they are to browsers that accept them, so nothing is compressed per request.
      preCompressed: true,
      cacheControl: false,
      schemaHide: true,
      setHeaders: (reply, filePath) => {
        const relative = path.relative(distDir, filePath).split(path.sep);
        reply.header('cache-control', relative[0] === 'assets' ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/login', 302));
  app.get('/console', { schema: { hide: true } }, (_request, reply) => reply.redirect(CONSOLE_BASE, 301));

  const fallback = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!built) {
      return reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT_PAGE);
    }
    const pathname = request.url.split('?')[0] ?? '';
    // A missing script or stylesheet must not get HTML back (the browser would report a MIME error).
    if (pathname.startsWith(`${CONSOLE_BASE}assets/`)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    const first = firstPages.find((p) => p.pattern.test(pathname));
    const page = first ?? index;
    const profile = page.signedOut ? undefined : await readPageProfile(app, config, request);
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (!profile) {
      reply.header('cache-control', 'no-cache').header('etag', page.etag).header('vary', 'accept-encoding');
      reply.type('text/html; charset=utf-8');
      if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
      if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(page.br);
      if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(page.gzip);
      return reply.send(page.text);
    }
    // The user's data: never stored by a cache. Before </body>: the preload links above it
    // reach the browser first, and module scripts run only once the document is parsed.
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    // A signed-in first page the server can draw goes drawn (console-render.ts).
    const draw = first && !first.signedOut ? await renderer() : undefined;
    const drawn =
      first && draw
        ? await drawnPage(draw, first.drawable, request.url, profile, clientConfig, request.log)
        : undefined;
    const html = (drawn ?? page.text).replace('</body>', `${profile.block}</body>`);
    if (!/\bgzip\b/.test(accepted)) return reply.send(html);
    return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(gzipSync(html));
  };
  // The directory itself is not a file to @fastify/static (it would answer 403).
  app.get(CONSOLE_BASE, { schema: { hide: true } }, fallback);
  return fallback;
}

/** The table the console's build writes, by the name packages/web/first-pages.plugin.ts gives it. */
const FIRST_PAGES_TABLE = 'first-pages.json';

/**
 * An HTML page of the build: whether it is one of the signed-out ones, and its text with the
 * client configuration (composed with a profile per request), compressed once at start.
 */
type Page = { signedOut: boolean } & Composed;
type Composed = { text: string; br: Buffer; gzip: Buffer; etag: string };

/** A page's HTML with `block` before `</body>`, its compressed copies and its ETag (revalidated by browsers). */
function composed(html: string, block: string): Composed {
  const text = html.replace('</body>', `${block}</body>`);
  return {
    text,
    br: brotliCompressSync(text),
    gzip: gzipSync(text),
    etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`,
  };
}

function readHtml(distDir: string, html: string): string {
  const text = readFileSync(path.join(distDir, html), 'utf8');
  if (!text.includes('</body>')) throw new Error(`${html}: no </body>`);
  return text;
}

/**
 * The first pages' address patterns and HTML files, from the build's table: each file is
 * index.html with links that preload its page's chunks. None when the build wrote no table
 * (a console built before it); a table naming a missing file is a broken build and stops the
 * start rather than serving a blank page.
 */
function readFirstPages(distDir: string): { pattern: RegExp; text: string; signedOut: boolean }[] {
  const file = path.join(distDir, FIRST_PAGES_TABLE);
  if (!existsSync(file)) return [];
  const rows: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(rows)) throw new Error(`${file}: not a list of pages`);
  return rows.map((row: { pattern?: unknown; html?: unknown; signedOut?: unknown }) => {
    if (typeof row.pattern !== 'string' || typeof row.html !== 'string') {
      throw new Error(`${file}: each page needs a pattern and an html file`);
    }
    const html = path.normalize(row.html);
    if (html.startsWith('..') || path.isAbsolute(html) || !existsSync(path.join(distDir, html))) {
      throw new Error(`${file}: ${row.html} is not a file of the build`);
    }
    return { pattern: new RegExp(row.pattern), text: readHtml(distDir, html), signedOut: row.signedOut === true };
  });
}
