import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { CONSOLE_BASE, CONSOLE_RENDERED_ELEMENT_ID } from '@patchwell/core/constants';
import type { ConsolePageRenderer } from '@patchwell/core/shell/page-render';
import type { PageProfile } from './console-profile';
import { jsonDataBlock } from './console-profile';

/** The module the console's build writes for Node (packages/web/vite.config.ts, `ssrBuild`). */
const RENDERER_FILE = 'render-page.mjs';

/**
 * The console's page renderer, loaded on the first page that needs it (React, Mantine and the
 * console's modules: a server that only answers agents never loads them), or undefined when
 * the console was built without it. A module that fails to load is reported once and the
 * pages are then sent as the console draws them.
 */
export function pageRenderer(ssrDir: string, log: FastifyBaseLogger): () => Promise<ConsolePageRenderer | undefined> {
  const file = path.join(ssrDir, RENDERER_FILE);
  let loading: Promise<ConsolePageRenderer | undefined> | undefined;
  return () =>
    (loading ??= existsSync(file)
      ? import(pathToFileURL(file).href).then(
          (module: { renderPage?: ConsolePageRenderer }) => module.renderPage,
          (error: unknown) => {
            log.warn(
              { err: error, file },
              'the console page renderer could not be loaded; pages are drawn by the browser',
            );
            return undefined;
          },
        )
      : Promise.resolve(undefined));
}

/**
 * A signed-in page drawn by the server (decision 0030): `html` (the page as the build wrote it,
 * its styles applied) with the markup in the root element and the data it was drawn from in
 * its block; undefined when the renderer draws no such page (the address, a redirect, a read
 * that failed) or fails, and the page then goes as the console draws it.
 */
export async function drawnPage(
  renderer: ConsolePageRenderer,
  html: string,
  url: string,
  profile: PageProfile,
  config: unknown,
  log: FastifyBaseLogger,
): Promise<string | undefined> {
  try {
    const drawn = await renderer({
      url,
      profile: JSON.parse(profile.profileJson),
      banners: JSON.parse(profile.bannersJson),
      config,
      fetch: profile.read,
    });
    if (!drawn) return undefined;
    return html
      .replace('<div id="root"></div>', () => `<div id="root">${drawn.html}</div>`)
      .replace('</body>', () => `${jsonDataBlock(CONSOLE_RENDERED_ELEMENT_ID, drawn.state)}</body>`);
  } catch (error) {
    log.warn({ err: error, url: url.split('?')[0] }, 'a console page could not be drawn; sent for the browser to draw');
    return undefined;
  }
}

/** The console's script that loads a drawn page's scripts after its first paint (packages/web/public). */
const AFTER_PAINT_SCRIPT = `<script type="module" src="${CONSOLE_BASE}after-paint.js"></script>`;

/**
 * A first page's HTML for drawing: the stylesheets it preloads for the console's scripts to
 * apply are applied at once (the drawn markup needs them before any script runs), and its
 * scripts and module preloads wait in an inert template (id `pw-scripts`, read by
 * web/public/after-paint.js) until the page is painted. On a phone's link a quarter of a
 * megabyte of scripts would otherwise share the bandwidth with the styles the paint waits
 * for; the page is readable before the scripts have arrived, and they are asked for at once
 * after (decision 0030).
 */
export function drawableHtml(html: string): string {
  const scripts: string[] = [];
  const rest = html
    .replace(
      /<link rel="preload" as="style" crossorigin href="([^"]+)">/g,
      '<link rel="stylesheet" crossorigin href="$1">',
    )
    .replace(/\s*(<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>)/g, (_tag, tag: string) => {
      scripts.push(tag);
      return '';
    });
  if (scripts.length === 0 || !rest.includes('</head>')) return html;
  return rest.replace(
    '</head>',
    () => `<template id="pw-scripts">${scripts.join('')}</template>${AFTER_PAINT_SCRIPT}</head>`,
  );
}
