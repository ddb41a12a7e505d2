import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/fast-check-seed.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep parallelism modest so real-socket tests don't starve each other.
    maxWorkers: 2,
  },
});
