import { defineConfig } from 'vitest/config';

// Browser flows against the real binary (see global-setup.ts). Files run one
// after another: they share one server, and Chromium is heavy on two cores.
export default defineConfig({
  test: {
    root: __dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    // A runner limit, not an assertion: cold Chromium starts take seconds here.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
