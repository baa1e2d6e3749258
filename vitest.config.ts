import { defineConfig } from 'vitest/config';

// One runner for every package; each project keeps its own environment and setup.
export default defineConfig({
  test: {
    projects: [
      'packages/core',
      'packages/server',
      'packages/web',
      'packages/web/vitest.build.config.ts',
      'packages/web/vitest.ssr.config.ts',
      'packages/agent',
    ],
    // Vitest takes one worker per core but one by default: on CI's two cores that left one
    // idle while the other ran every file in turn (the PostgreSQL pass: 1,212 s of tests in
    // 624 s with two workers on a loaded machine, against one file at a time before).
    maxWorkers: 2,
  },
});
