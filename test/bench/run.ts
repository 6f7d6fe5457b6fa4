/**
 * `npm run bench`: every benchmark, each printing its figures beside a baseline measured in
 * the same run (machines are shared and noisy; ratios travel, absolute times do not).
 * `npm run bench -- <name>` runs one. LESSONS_BENCH_BIN=<another build's lessons binary> runs
 * that build instead (a before/after); LESSONS_BENCH_SCALE=100000 adds that size.
 */
const BENCHES: Record<string, () => Promise<{ bench: () => Promise<void> }>> = {
  foundation: () => import('./foundation.js'),
  lifecycle: () => import('./lifecycle.js'),
  preflight: () => import('./preflight.js'),
  guard: () => import('./guard.js'),
  hooks: () => import('./hooks.js'),
  scale: () => import('./scale.js'),
  federation: () => import('./federation.js'),
};

const wanted = process.argv.slice(2);
for (const [name, load] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n== ${name} ==`);
  await (await load()).bench();
}
