import path from 'node:path';
import { fileURLToPath } from 'node:url';

export * from './measure.js';

/** The built binary (package.json's bin), from dist/test/bench/ or from test/bench/. */
export const BUILT_BIN = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = here.includes(`${path.sep}dist${path.sep}`) ? path.resolve(here, '../../..') : path.resolve(here, '../..');
  return path.join(root, 'dist/cli/lessons.cjs');
})();

/** What every benchmark runs: this build's binary, or LESSONS_BENCH_BIN (another build's, for a before/after). */
export const BIN = process.env.LESSONS_BENCH_BIN ?? BUILT_BIN;
