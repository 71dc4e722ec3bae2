import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module) builds; Node loads the CJS one for the
  // libraries, so our own files must get the same copy or schemas come "from another realm".
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll returns as soon as its assertion holds; the default second was shorter than a
    // dashboard's first load in Chromium while the whole suite runs on two cores.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    maxWorkers: 2,
    // Test files in one worker share the modules they import (the gateway's module graph takes about a
    // second to load, a fifth of the run when each file loaded it again). Files share no state through
    // them: the caches are per gateway (src/domain/process-cache.ts) or keyed by random ids (the BIN
    // facts, by account), and no test mocks a module.
    isolate: false,
  },
});
