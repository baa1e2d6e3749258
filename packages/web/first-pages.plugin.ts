import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/**
 * A page often opened first by address, and the source modules its route loads lazily (paths
 * from packages/web). `signedOut`: a page shown without a session (the server then sends it
 * without the user's profile, which only signed-in pages read).
 */
export type FirstPage = { name: string; pattern: RegExp; modules: string[]; signedOut?: boolean };

/** Where the build writes the first pages' HTML and their table (the server's `http/console.ts` reads the table by this name). */
const FIRST_PAGES_DIR = 'first-pages';
const FIRST_PAGES_TABLE = 'first-pages.json';

/**
 * Writes, for each first page, a copy of `index.html` that also asks for the page's lazily
 * loaded chunks (`modulepreload`) and their styles (`preload`), and a table of the pages'
 * address patterns, from which the server picks the HTML for the address asked. Without them
 * the router discovers a page's chunk only once the entry and its vendor chunks have loaded
 * and run, one round trip after another; with them the browser's preload scanner finds every
 * file in the HTML and loads them beside the entry, and no script is spent on it (the login
 * page's JavaScript budget is tight). Vite's own preloading then finds the links and adds no
 * second request.
 */
export function firstPages(pages: FirstPage[]): Plugin {
  let base = '/';
  return {
    name: 'patchwell:first-pages',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') throw new Error('first-pages: no index.html in the bundle');
      const index = String(html.source);
      // What the HTML loads: the entry chunk (and its preloads), or, when the entry chunk holds
      // nothing but imports (main.tsx is in the `app` group, see vite.config.ts), the chunks Vite
      // writes in its place as module scripts. Read from the HTML: the build has more than one
      // entry chunk (the login page is one).
      const loaded = [
        ...index.matchAll(/<(?:script type="module"|link rel="modulepreload")[^>]* (?:src|href)="([^"]+)"/g),
      ]
        .map((m) => m[1]!.slice(base.length))
        .filter((f) => bundle[f]?.type === 'chunk');
      if (loaded.length === 0) throw new Error('first-pages: no module script in index.html');
      if (!index.includes('</head>')) throw new Error('first-pages: index.html has no </head>');
      const inEntry = staticClosure(bundle, loaded);
      const table = pages.map(({ name, pattern, modules, signedOut }) => {
        const roots: string[] = [];
        const css = new Set<string>();
        for (const m of modules) {
          const isModule = (id: string | null) => !!id && id.replaceAll('\\', '/').endsWith(`/packages/web/${m}`);
          // The chunk the route's `import()` asks for: the module's own, or, when a group holds
          // the module (see codeSplitting in vite.config.ts), a small one naming its exports in
          // the group's, which the browser would otherwise discover only when the route loads.
          // Else the chunk holding it, imported statically by one the page loads.
          const chunk =
            chunks.find((c) => c.isDynamicEntry && isModule(c.facadeModuleId)) ??
            chunks.find((c) => c.moduleIds.some(isModule));
          // A module of styles only leaves no chunk, only its stylesheet.
          const sheet = Object.values(bundle).find(
            (a) => a.type === 'asset' && a.names.includes(m.replace(/^.*\//, '').replace(/\.tsx?$/, '.css')),
          );
          if (chunk) roots.push(chunk.fileName);
          else if (sheet) css.add(sheet.fileName);
          else throw new Error(`first-pages: no chunk for ${m}`);
        }
        const scripts = [...staticClosure(bundle, roots)].filter((f) => !inEntry.has(f));
        for (const f of scripts) for (const c of (bundle[f] as OutputChunk).viteMetadata?.importedCss ?? []) css.add(c);
        const links = [
          ...scripts.map((f) => `<link rel="modulepreload" crossorigin href="${base}${f}">`),
          ...[...css].map((f) => `<link rel="preload" as="style" crossorigin href="${base}${f}">`),
        ];
        const fileName = `${FIRST_PAGES_DIR}/${name}.html`;
        this.emitFile({
          type: 'asset',
          fileName,
          source: index.replace('</head>', `  ${links.join('\n    ')}\n  </head>`),
        });
        return { pattern: pattern.source, html: fileName, ...(signedOut ? { signedOut } : {}) };
      });
      this.emitFile({ type: 'asset', fileName: FIRST_PAGES_TABLE, source: `${JSON.stringify(table, null, 2)}\n` });
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
