import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // A page test renders, clicks and waits on a real HTTP server; on a busy 2-core machine one
    // takes several seconds. A slow test is not a failing one: correctness waits are findBy*/waitFor.
    testTimeout: 20_000,
  },
});
