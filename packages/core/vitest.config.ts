import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Property tests are CPU-bound: on CI's two cores, shared with the server's tests, building
    // fc.webUrl()'s generator alone passed vitest's default 5 s.
    testTimeout: 30_000,
  },
});
