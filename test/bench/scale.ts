import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, BUILT_BIN, growthTable, peakRssMiB, runOnce, summarize, type Timing } from './shared.js';
import { generateRepo } from './synthetic.js';
import { NO_CA } from './search-bench.js';
import { CACHE_FILE, DELTA_FILE } from '../../src/search/open.js';

/**
 * What the commands that are not preflight cost as the corpus grows, with a warm file cache:
 * lessons index (nothing changed, one lesson changed), index --check, lint (after one change,
 * and again), the pre-commit guard with ten staged lessons, capture of a recurrence (with no search
 * cache, and after a preflight left one), index after one change with preflight's search cache to
 * bring along (a title edited in place, a title saved by rename, a body edited), and report,
 * at 1,000 and 10,000 lessons (LESSONS_BENCH_SCALE=100000 adds 100,000; a comma list sets the
 * sizes). Every command runs interleaved with `node -e 0` twice: with the environment as it is,
 * and with NODE_EXTRA_CA_CERTS unset for both (a CA bundle makes node's own start cost more,
 * which flatters every ratio). Also: p95, peak RSS, and the growth exponent between sizes of the
 * time above node's start. LESSONS_BENCH_BIN runs another build of the CLI (a before/after).
 */

const GIT_ENV = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const STAGED = 10;

function sizes(): number[] {
  const flag = process.env.LESSONS_BENCH_SCALE;
  if (flag === undefined || flag === '') return [1_000, 10_000];
  const listed = flag.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return listed.length === 1 && listed[0]! > 10_000 ? [1_000, 10_000, listed[0]!] : listed;
}

interface Row {
  label: string;
  args: string[];
  input?: string;
  /** Runs before each timed run (not timed): the change the row measures. */
  prepare?: (run: number) => void;
}

/** `env` adds to this process's environment; NO_CA names NODE_EXTRA_CA_CERTS to unset it (leaving it out would keep it). */
function timed(cwd: string, args: string[], input: string | undefined, env: Record<string, string | undefined> | undefined): number {
  return runOnce(process.execPath, args, { cwd, input, env: { ...GIT_ENV, ...env } });
}

/** One edit to a lesson file: its Situation gains a sentence (the index entry stays), or its title changes (the entry changes). */
function edit(file: string, what: 'body' | 'title', run: number, save: 'in place' | 'by rename' = 'in place'): void {
  const text = fs.readFileSync(file, 'utf8');
  const edited = what === 'title' ? text.replace(/^title: .*$/m, `title: "Retitled in run ${run}"`) : text.replace('## Mistake', `Edited in run ${run}.\n\n## Mistake`);
  if (save === 'in place') fs.writeFileSync(file, edited);
  else {
    // As editors that save safely do (vim, JetBrains, Emacs): a new file renamed over the old one.
    fs.writeFileSync(`${file}.swp`, edited);
    fs.renameSync(`${file}.swp`, file);
  }
}

async function repository(dir: string, count: number): Promise<string[]> {
  const ids = await generateRepo(dir, count, count);
  fs.writeFileSync(path.join(dir, '.gitignore'), '.lessons/\n');
  const git = (...args: string[]): number => runOnce('git', args, { cwd: dir, env: GIT_ENV });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'lessons');
  return ids;
}

function fileOf(dir: string, id: string): string {
  const folder = id.startsWith('case-') ? 'cases' : id.startsWith('pattern-') ? 'patterns' : 'principles';
  return path.join(dir, 'lessons', folder, `${id}.md`);
}

function rowsFor(dir: string, ids: string[]): Row[] {
  const cases = ids.filter((id) => id.startsWith('case-'));
  const title = fs.readFileSync(fileOf(dir, cases[1]!), 'utf8').match(/^title: (.*)$/m)![1]!.replace(/^"|"$/g, '');
  const git = (...args: string[]): number => runOnce('git', args, { cwd: dir, env: GIT_ENV });
  return [
    // Capture changes a lesson: an untimed index settles the tree first. The rows before the captures run with no search
    // cache (it is removed): what a repository nobody ran preflight in pays.
    {
      label: 'index, nothing changed',
      args: [BIN, 'index'],
      prepare: () => {
        runOnce(process.execPath, [BIN, 'index'], { cwd: dir });
        for (const file of [CACHE_FILE, DELTA_FILE]) fs.rmSync(path.join(dir, file), { force: true });
      },
    },
    { label: 'index, one lesson changed', args: [BIN, 'index'], prepare: (run) => edit(fileOf(dir, cases[0]!), 'title', run) },
    { label: 'index --check, nothing changed', args: [BIN, 'index', '--check'] },
    { label: 'lint, one lesson changed', args: [BIN, 'lint'], prepare: (run) => edit(fileOf(dir, cases[2]!), 'body', run) },
    { label: 'lint, nothing changed', args: [BIN, 'lint'] },
    {
      label: `guard --stage pre-commit, ${STAGED} staged lessons`,
      args: [BIN, 'guard', '--stage', 'pre-commit'],
      prepare: (run) => {
        for (let i = 0; i < STAGED; i++) edit(fileOf(dir, ids[(i * 97 + 5) % ids.length]!), 'body', run);
        runOnce(process.execPath, [BIN, 'index'], { cwd: dir });
        git('add', '-A');
      },
    },
    { label: 'capture of a recurrence, no search cache', args: [BIN, 'capture', '-'], input: `[LESSON]\ntitle: ${title}\n[/LESSON]\n` },
    // Where capture runs, an agent ran preflight before the work: the search cache it left finds the candidates.
    {
      label: 'capture of a recurrence, after a preflight',
      args: [BIN, 'capture', '-'],
      input: `[LESSON]\ntitle: ${title}\n[/LESSON]\n`,
      prepare: () => runOnce(process.execPath, [BIN, 'preflight', title], { cwd: dir }),
    },
    // Where people run preflight, `lessons index` brings its search cache along: what an edit costs there.
    {
      label: 'index, one lesson changed, with a search cache',
      args: [BIN, 'index'],
      prepare: (run) => {
        runOnce(process.execPath, [BIN, 'preflight', title], { cwd: dir });
        edit(fileOf(dir, cases[0]!), 'title', run);
      },
    },
    { label: 'index, one lesson saved by rename, with a search cache', args: [BIN, 'index'], prepare: (run) => edit(fileOf(dir, cases[3]!), 'title', run, 'by rename') },
    // A body edit leaves the index as it was; the search cache still takes the new text.
    { label: 'index, one lesson body changed, with a search cache', args: [BIN, 'index'], prepare: (run) => edit(fileOf(dir, cases[4]!), 'body', run) },
    { label: 'report', args: [BIN, 'report'] },
    { label: 'report with its HTML page', args: [BIN, 'report', '--html', path.join(dir, '.lessons', 'report.html')] },
  ];
}

interface Measured {
  row: string;
  asIs: Timing;
  noCa: Timing;
  rss: number;
}

function measure(dir: string, rows: Row[], rounds: number): { base: Timing; baseNoCa: Timing; rows: Measured[]; first: Map<string, number> } {
  const samples = rows.map(() => ({ asIs: [] as number[], noCa: [] as number[] }));
  const base = { asIs: [] as number[], noCa: [] as number[] };
  const first = new Map<string, number>();
  let run = 0;
  for (let round = 0; round <= rounds; round++) {
    for (const [env, into] of [[undefined, 'asIs'], [NO_CA, 'noCa']] as const) {
      const node = timed(dir, ['-e', '0'], undefined, env);
      if (round > 0) base[into].push(node);
      rows.forEach((row, i) => {
        row.prepare?.(run++);
        const ms = timed(dir, row.args, row.input, env);
        if (round > 0) samples[i]![into].push(ms);
        else if (env === undefined) first.set(row.label, ms);
      });
    }
  }
  const measured = rows.map((row, i) => {
    row.prepare?.(run++);
    return { row: row.label, asIs: summarize(row.label, samples[i]!.asIs), noCa: summarize(row.label, samples[i]!.noCa), rss: peakRssMiB(row.args[0]!, row.args.slice(1), dir, {}, row.input) };
  });
  return { base: summarize('node -e 0', base.asIs), baseNoCa: summarize('node -e 0', base.noCa), rows: measured, first };
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;

export async function bench(): Promise<void> {
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-scale-'));
  const results = new Map<number, ReturnType<typeof measure>>();
  try {
    for (const count of sizes()) {
      const dir = path.join(root, String(count));
      const ids = await repository(dir, count);
      const rounds = count <= 1_000 ? 7 : count <= 10_000 ? 5 : 3;
      const result = measure(dir, rowsFor(dir, ids), rounds);
      results.set(count, result);
      out(`\n${count} lessons, warm file cache (${BIN === BUILT_BIN ? 'this build' : BIN}), median of ${rounds} interleaved rounds; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
      out('');
      out('| command | env as is | vs node -e 0 | NODE_EXTRA_CA_CERTS unset | vs node -e 0 | p95 (unset) | peak RSS | first run |');
      out('|---|---:|---:|---:|---:|---:|---:|---:|');
      out(`| node -e 0 | ${ms(result.base.median)} | 1.00x | ${ms(result.baseNoCa.median)} | 1.00x | ${ms(result.baseNoCa.p95)} | | |`);
      for (const row of result.rows) {
        out(
          `| ${row.row} | ${ms(row.asIs.median)} | ${(row.asIs.median / result.base.median).toFixed(2)}x | ${ms(row.noCa.median)} | ${(row.noCa.median / result.baseNoCa.median).toFixed(2)}x | ${ms(row.noCa.p95)} | ${row.rss.toFixed(0)} MiB | ${ms(result.first.get(row.row) ?? 0)} |`,
        );
      }
    }
    const counts = [...results.keys()];
    if (counts.length < 2) return;
    out('\nGrowth exponent of the time above node -e 0 (CA variable unset) between sizes: 1 is linear in the corpus, 0 flat');
    out('');
    const above = (size: number, n: number): number => results.get(size)!.rows[n]!.noCa.median - results.get(size)!.baseNoCa.median;
    for (const line of growthTable(counts, results.get(counts[0]!)!.rows.map((row, n) => ({ label: row.row, above: (size: number) => above(size, n) })))) out(line);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
