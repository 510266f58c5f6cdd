import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'simulator/**/*.test.ts', 'model/**/*.test.ts', 'properties/**/*.test.ts', 'examples/**/*.test.ts', 'docs/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
