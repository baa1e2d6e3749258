import { defineConfig } from 'vitest/config';

// One runner for every package; each project keeps its own environment and setup.
export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/server', 'packages/web', 'packages/agent'],
  },
});
