import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));
// 'server-only' throws outside React Server Components; tests import server modules directly.
const serverOnlyStub = fileURLToPath(new URL('./test/server-only-stub.ts', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': src, 'server-only': serverOnlyStub } },
  test: {
    globals: true,
    // CPU is shared; two workers are plenty for these suites.
    maxWorkers: 2,
    // Typing into MUI fields in jsdom is slow on a busy machine; these are not timing assertions.
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'server', environment: 'node', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'components',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['./test/setup-dom.ts'],
        },
      },
    ],
  },
});
