import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/built-is-current.ts', 'test/support/data-root.ts'],
    setupFiles: ['test/support/fast-check-seed.ts', 'test/support/data-dir.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for what a real browser or socket shows; 1 s (Vitest's default) is too
    // short on two loaded cores (a WebSocket connect in the app took longer in a full run).
    expect: { poll: { timeout: 10_000 } },
    // Two cores: keep parallelism modest so real-socket tests don't starve each other.
    maxWorkers: 2,
  },
});
