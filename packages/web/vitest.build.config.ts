import { defineProject } from 'vitest/config';

// The console build's own plugins (*.plugin.ts), tested in Node: they run in Vite, not in the page.
export default defineProject({
  test: {
    name: 'web-build',
    environment: 'node',
    include: ['*.plugin.test.ts'],
  },
});
