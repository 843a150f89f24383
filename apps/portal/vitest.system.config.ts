import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The system suite (`npm run test:system`): tests that drive programs other than Node, npm and
 * PostgreSQL (kubectl), so `npm test` passes on a machine without them. .ci/run installs them
 * and runs this suite.
 */
export default defineConfig({
  resolve: base.resolve,
  test: {
    globals: base.test?.globals,
    maxWorkers: base.test?.maxWorkers,
    testTimeout: base.test?.testTimeout,
    environment: 'node',
    include: ['system/**/*.test.ts'],
  },
});
