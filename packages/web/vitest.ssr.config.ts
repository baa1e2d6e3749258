import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

// The server's drawing of pages (src/ssr), tested in Node as the server runs it: no DOM, so a
// module that reads the browser while drawing fails here as it would on the server.
export default defineProject({
  plugins: [react()],
  test: {
    name: 'web-ssr',
    environment: 'node',
    include: ['src/ssr/**/*.test.{ts,tsx}'],
  },
});
