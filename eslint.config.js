import js from '@eslint/js';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Server layering (ARCHITECTURE.md): SQL only in stores, routes call services, services never
// depend on the HTTP layer. Type imports are allowed: a service may name a row type.
const SQL_IMPORTS = {
  regex: String.raw`^(drizzle-orm(/.*)?|pg|.*/db/(schema|raw|[\w-]+\.schema))$`,
  allowTypeImports: true,
  message: 'SQL lives in *.store.ts files only (and src/db/): call a store function instead.',
};
const STORE_IMPORTS = {
  regex: String.raw`\.store$`,
  allowTypeImports: true,
  message: 'Routes call services, never stores: add or use a service function.',
};
const HTTP_IMPORTS = {
  regex: String.raw`(^|/)http/`,
  message: 'Only routes and the app wiring use the HTTP layer: errors and authorization are in src/domain/.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Scripts the console's build copies as they are (packages/web/public).
  { files: ['packages/web/public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-console': 'error',
    },
  },
  {
    files: ['packages/server/src/**/*.ts'],
    // Tests and their case tables (a test's `*.cases/` folder) seed and read rows directly.
    ignores: [
      '**/*.store.ts',
      'packages/server/src/db/**',
      'packages/server/src/test/**',
      '**/*.test.ts',
      '**/*.cases/**',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SQL_IMPORTS] }] },
  },
  {
    // Services, stores, the engine and domain/ stay free of Fastify's layer.
    files: ['packages/server/src/**/*.ts'],
    ignores: [
      '**/*.routes.ts',
      'packages/server/src/http/**',
      'packages/server/src/app.ts',
      'packages/server/src/main.ts',
      'packages/server/src/test/**',
      '**/*.test.ts',
      '**/*.cases/**',
      '**/*.store.ts',
      'packages/server/src/db/**',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SQL_IMPORTS, HTTP_IMPORTS] }] },
  },
  {
    files: ['packages/server/src/**/*.store.ts', 'packages/server/src/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [HTTP_IMPORTS] }] },
  },
  {
    files: ['packages/server/src/**/*.routes.ts', 'packages/server/src/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      // The readiness probe's `select 1` is the database's own health, not a feature's store.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [SQL_IMPORTS, { ...STORE_IMPORTS, regex: String.raw`^(?!.*db/health\.store$).*\.store$` }] },
      ],
    },
  },
  {
    // Core is pure (ARCHITECTURE.md): no file, network or process I/O, so the console and the
    // agent can import any of it. Data the server ships (the worklet catalogue) lives there.
    files: ['packages/core/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(node:)?(fs|fs/promises|net|http|https|child_process|dgram|dns|os|worker_threads)$`,
              message: 'packages/core does no I/O: put this in the server or the agent.',
            },
          ],
        },
      ],
    },
  },
  {
    // Import cycles, in every package: type-only imports do not count (they vanish at run time).
    files: ['packages/*/src/**/*.{ts,tsx}'],
    plugins: importX.flatConfigs.typescript.plugins,
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: 'packages/*/tsconfig.json', noWarnOnMultipleProjects: true }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // CLIs and scripts talk to a terminal.
    files: ['scripts/**', 'bench/**', 'packages/agent/**', '**/*.cli.ts', '**/migrate-cli.ts', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
);
