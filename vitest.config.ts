import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // "durasim" in an example or fixture is the sources here, as tsconfig.json's paths say (the package's own entry is dist/, built only for the package).
  resolve: { alias: [{ find: /^durasim$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }, { find: /^durasim\/internals$/, replacement: fileURLToPath(new URL('./src/internals.ts', import.meta.url)) }] },
  test: {
    include: ['src/**/*.test.ts', 'simulator/**/*.test.ts', 'model/**/*.test.ts', 'properties/**/*.test.ts', 'examples/**/*.test.ts', 'docs/**/*.test.ts'],
    // A test's timeout catches a hang; it is never a speed gate (that is `npm run bench`).
    testTimeout: 60_000,
    pool: 'forks',
    // One test file per core (vitest's default leaves one core to its own process, which mostly waits).
    maxWorkers: Math.max(1, availableParallelism()),
  },
});
