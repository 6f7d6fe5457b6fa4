import { defineConfig } from 'vitest/config';

/** The end-to-end tests against the real Codex CLI: `npm run test:codex`. */
export default defineConfig({
  test: {
    include: ['test/codex/**/*.codex.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
    maxWorkers: 1,
  },
});
