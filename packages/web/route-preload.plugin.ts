import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** A first page and the source modules its route loads lazily (paths from packages/web). */
export type FirstPage = { pattern: RegExp; modules: string[] };

/**
 * Asks for the first page's lazily loaded chunks as the HTML arrives instead of after the
 * entry has run. The router discovers a page's chunk only once the entry and its vendor chunks
 * have loaded and run, one round trip after another; a small classic script (the CSP allows
 * no inline script) adds a `modulepreload` for each chunk of the page the address names, and
 * a style preload for its CSS, so they load beside the entry. Vite's own preloading then finds
 * the links and adds no second request.
 */
export function routePreload(pages: FirstPage[]): Plugin {
  let base = '/';
  return {
    name: 'patchwell:route-preload',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') throw new Error('route-preload: no index.html in the bundle');
      // What the HTML loads: the entry chunk (and its preloads), or, when the entry chunk holds
      // nothing but imports (main.tsx is in the `app` group, see vite.config.ts), the chunks Vite
      // writes in its place as module scripts. Read from the HTML: the build has more than one
      // entry chunk (the login page is one).
      const loaded = [
        ...String(html.source).matchAll(
          /<(?:script type="module"|link rel="modulepreload")[^>]* (?:src|href)="([^"]+)"/g,
        ),
      ]
        .map((m) => m[1]!.slice(base.length))
        .filter((f) => bundle[f]?.type === 'chunk');
      if (loaded.length === 0) throw new Error('route-preload: no module script in index.html');
      const inEntry = staticClosure(bundle, loaded);
      const table = pages.map(({ pattern, modules }) => {
        const roots: string[] = [];
        const css = new Set<string>();
        for (const m of modules) {
          // The chunk holding the module: its own, or a group's (see codeSplitting in vite.config.ts).
          const chunk = chunks.find((c) =>
            c.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(`/packages/web/${m}`)),
          );
          // A module of styles only leaves no chunk, only its stylesheet.
          const sheet = Object.values(bundle).find(
            (a) => a.type === 'asset' && a.names.includes(m.replace(/^.*\//, '').replace(/\.tsx?$/, '.css')),
          );
          if (chunk) roots.push(chunk.fileName);
          else if (sheet) css.add(sheet.fileName);
          else throw new Error(`route-preload: no chunk for ${m}`);
        }
        const files = [...staticClosure(bundle, roots)].filter((f) => !inEntry.has(f));
        for (const f of files) for (const c of (bundle[f] as OutputChunk).viteMetadata?.importedCss ?? []) css.add(c);
        // Without the common `<base>assets/` prefix, which the script puts back: the table is most of the file.
        const names = [...files, ...css].map((f) => {
          if (!f.startsWith('assets/')) throw new Error(`route-preload: ${f} is not under assets/`);
          return f.slice('assets/'.length);
        });
        return [pattern.source, names] as const;
      });
      const source =
        `(function(){var p=location.pathname,b=${JSON.stringify(`${base}assets/`)},t=${JSON.stringify(table)};` +
        `for(var i=0;i<t.length;i++){if(!new RegExp(t[i][0]).test(p))continue;` +
        `t[i][1].forEach(function(h){var l=document.createElement('link'),c=/\\.css$/.test(h);` +
        `l.rel=c?'preload':'modulepreload';if(c)l.as='style';l.crossOrigin='';l.href=b+h;document.head.appendChild(l)});break}})();\n`;
      const fileName = this.getFileName(this.emitFile({ type: 'asset', name: 'route-preload.js', source }));
      // Before the entry, so it runs as soon as it arrives (async) and the preloads start early.
      html.source = String(html.source).replace(
        '<script type="module"',
        `<script async src="${base}${fileName}"></script>\n    <script type="module"`,
      );
    },
  };
}

/** The chunks `roots` import statically, themselves included. */
function staticClosure(bundle: OutputBundle, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const chunk = bundle[file];
    if (chunk?.type === 'chunk') stack.push(...chunk.imports);
  }
  return seen;
}
