import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn git and the built CLI; two workers match the two cores these machines have.
    maxWorkers: 2,
  },
});
