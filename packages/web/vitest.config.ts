import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // The server's drawing of pages runs in Node (vitest.ssr.config.ts).
    exclude: ['src/ssr/**'],
    css: false,
    // A page test renders, types, clicks and waits on a real HTTP server; on a busy 2-core
    // machine one takes tens of seconds (typing re-renders a whole form per key). A slow test
    // is not a failing one: correctness waits are findBy*/waitFor. One limit for every file: a
    // test cut off mid-typing leaves user-event's keys landing in the next test's form.
    testTimeout: 90_000,
    // Files in a worker share one jsdom and one module graph (Mantine, React, the router
    // imported once, not 88 times): 284 s → 77 s for this project on two cores, and the files
    // pass in any order (--sequence.shuffle.files). What a file leaves behind is cleared after
    // each test by src/test/setup.ts.
    isolate: false,
  },
});
