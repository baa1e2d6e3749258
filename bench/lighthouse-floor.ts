/**
 * The floors the console's pages are measured against in bench/lighthouse.ts, as the check-in
 * bench measures its route against bare servers: the login page's form in the same Mantine
 * components with none of the console's code (`floor-form`: React and Mantine alone), and the
 * same form behind React Router and TanStack Query's providers (`floor-stack`: the libraries
 * every console page loads). Built here with Vite as the console is (the same vendor chunks,
 * the same Brotli copies) and served as the server serves the console (@fastify/static with
 * the precompressed files). Whatever score a floor gets, no page of the console built on this
 * stack can get more by client rendering alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { build, type PluginOption } from 'vite';

const WEB = join(import.meta.dirname, '..', 'packages', 'web');
const ROOT = join(import.meta.dirname, 'lighthouse-floor');
export const FLOOR_PAGES = { 'floor-form': 'form.html', 'floor-stack': 'stack.html' } as const;

/** Builds the floor pages and serves them on `port` under /floor/; `close` stops and removes them. */
export async function startFloor(
  port: number,
): Promise<{ url: (page: keyof typeof FLOOR_PAGES) => string; close(): Promise<void> }> {
  const outDir = mkdtempSync(join(tmpdir(), 'patchwell-floor-'));
  // The console's React plugin, from the console's own dependencies.
  const reactPlugin = createRequire(join(WEB, 'package.json')).resolve('@vitejs/plugin-react');
  const react = (await import(pathToFileURL(reactPlugin).href)) as { default: () => PluginOption };
  await build({
    configFile: false,
    root: ROOT,
    base: '/floor/',
    logLevel: 'warn',
    plugins: [react.default()],
    build: {
      outDir,
      emptyOutDir: true,
      modulePreload: { polyfill: false },
      rolldownOptions: {
        input: { form: join(ROOT, FLOOR_PAGES['floor-form']), stack: join(ROOT, FLOOR_PAGES['floor-stack']) },
        output: {
          // The console's vendor chunks (packages/web/vite.config.ts).
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
              { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 30 },
              { name: 'query', test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/, priority: 30 },
            ],
          },
        },
      },
    },
  });
  execFileSync(process.execPath, [join(WEB, 'scripts', 'precompress.mjs'), outDir], { stdio: 'ignore' });

  const app = Fastify();
  await app.register(fastifyStatic, {
    root: outDir,
    prefix: '/floor/',
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) =>
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: (page) => `http://127.0.0.1:${port}/floor/${FLOOR_PAGES[page]}`,
    async close() {
      await app.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
