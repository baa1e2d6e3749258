import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstPages } from './first-pages.plugin.js';
import { lighterMantineImports } from './mantine-imports.plugin.js';
import { staticClosure } from './static-closure.plugin.js';

// What every signed-in page needs: the session and zone guards, the shell around the page and
// the parts of a list page most pages have (table, pager, sort headers, row menus, hints, dates,
// confirmations). Kept in one chunk (the `shell` group below) instead of the 40-odd files of
// under a kilobyte automatic splitting makes of modules shared by several pages: under
// Lighthouse's simulated network each file costs a round trip on one of six connections.
const shell = staticClosure([
  'src/app/guards.ts',
  'src/features/shell/ShellLayout.tsx',
  'src/ui/table/TablePager.tsx',
  'src/ui/table/SortableTh.tsx',
  'src/ui/table/useTableQuery.ts',
  'src/ui/QueryTable.tsx',
  'src/ui/Hint.tsx',
  'src/ui/format-date.ts',
  'src/ui/confirm.tsx',
  'src/ui/menu/ActionMenu.tsx',
]);

// The API server (packages/server) listens here during `npm run dev`.
const API_TARGET = 'http://127.0.0.1:8080';

// The server's drawing of signed-in first pages (src/ssr/render-page.tsx, decision 0030): the
// same modules built for Node; no chunking groups, preloads or HTML.
const ssrBuild = defineConfig({
  base: '/console/',
  plugins: [react()],
  // Bundled whole, React's production build included: the server needs no package of the
  // console's at run time, and the drawing does not run React's development checks.
  ssr: { noExternal: true },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist-ssr',
    emptyOutDir: true,
    rolldownOptions: { output: { entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' } },
  },
});

const clientBuild = defineConfig({
  base: '/console/',
  plugins: [
    react(),
    lighterMantineImports(),
    shell.plugin,
    // The pages most often opened first by address (paths under /console, see app/paths.ts).
    firstPages([
      {
        name: 'login',
        pattern: /^\/console\/?(login\/?)?$/,
        modules: ['src/features/auth/LoginPage.tsx'],
        signedOut: true,
      },
      {
        name: 'dashboard',
        pattern: /^\/console\/dashboard\/?$/,
        modules: [
          'src/app/guards.ts',
          'src/features/shell/ShellLayout.tsx',
          'src/features/dashboard/DashboardPage.tsx',
          'src/app/mantine-styles-rest.ts',
        ],
      },
      {
        name: 'devices',
        pattern: /^\/console\/devices\/?$/,
        modules: [
          'src/app/guards.ts',
          'src/features/shell/ShellLayout.tsx',
          'src/features/devices/DevicesPage.tsx',
          'src/app/mantine-styles-rest.ts',
        ],
      },
    ]),
  ],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/bespoke': { target: API_TARGET, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/bespoke': { target: API_TARGET, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The polyfill only makes old browsers fetch preloaded chunks early (one without
    // `modulepreload` still loads them when imported); current ones need none of its kilobyte
    // in the login page's script.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The login page is also an entry (its chunk named `login`), only so that its static
      // imports carry the `$initial` tag and join the `app` chunk below: the first download is
      // then 7 files, not 21. The router still loads it lazily (app/routes.tsx).
      input: { index: 'index.html', login: 'src/features/auth/LoginPage.tsx' },
      treeshake: {
        // Building a zod schema has no side effects: a module imported for a constant or a
        // helper (saml-signin.schema's SAML_SIGNIN_ERROR, shell/errors' errorText) then
        // brings no unused schema, and zod stays off pages that validate nothing.
        manualPureFunctions: ['z'],
      },
      output: {
        // Long-lived vendor chunks: they change with dependency upgrades, not with our code.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 30 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 30 },
            // Query only: react-virtual goes with the pages that virtualise a list.
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/, priority: 30 },
            { name: 'icons', test: /node_modules[\\/]@tabler[\\/]/, priority: 30 },
            // Everything else the entry imports statically, in one chunk: left alone, each module it
            // shares with a lazily loaded page gets a chunk of its own (the login page loaded 60
            // files, 40 of them under 1 KiB, each compressed on its own and so a fifth larger than
            // together). Rolldown also puts the entry module (main.tsx) here, so the entry chunk is
            // only imports and Vite writes its imports as module scripts in index.html instead
            // (first-pages.plugin.ts reads them). After tree-shaking: only what is used. The
            // login page's own module stays in its chunk: signed-in pages need only its imports.
            {
              name: 'app',
              tags: ['$initial'],
              test: (id) => !/[\\/]features[\\/]auth[\\/]LoginPage\.tsx$/.test(id),
              priority: 20,
            },
            // After `app`: what the login page also uses stays in the login page's download.
            // With the modules come the packages they use (Mantine's table, pagination, …).
            { name: 'shell', test: (id) => shell.has(id), priority: 10 },
          ],
        },
      },
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrBuild : clientBuild));
