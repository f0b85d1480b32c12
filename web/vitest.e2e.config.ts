// End-to-end tests: the real binary builds the demo site, `stillpoint serve` serves it on
// 127.0.0.1, and playwright-core drives Debian's Chromium (never a downloaded browser).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    // Two files at a time, one per core: most of a test is waiting on the browser or the binary
    // (every server a test starts takes a free port and every browser its own profile).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    retry: process.env.CI ? 1 : 0,
    reporters: ['default'],
  },
});
