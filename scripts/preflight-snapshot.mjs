/**
 * Records what the built CLI prints for every query of labelled lesson repositories, so a
 * refactor can show its output is byte-identical: `lessons preflight` in the json and text
 * formats for each task, and for a query with a hook the hook mode (--tool/--path/--command,
 * no task) and the task with the hook's flags.
 *
 *   node scripts/preflight-snapshot.mjs --out before.json <repository>...
 *   node scripts/preflight-snapshot.mjs --against before.json <repository>...
 *
 * A repository is `lessons/` plus `queries.json` ([{id, task, hook}]), or the older layout
 * of test/fixtures/eval (`corpus/lessons/` plus `tasks.json`), as test/bench/eval.ts reads
 * them. Each is prepared once the way a user's would be: its lessons copied into a fresh git
 * repository, then `lessons index`. `--against` prints how many runs are identical and each
 * run that is not, and exits 1 when one differs. `--bin <file>` runs another build (default:
 * this checkout's dist/cli/lessons.cjs, the installed bin, and dist/cli/lessons.js for the
 * json runs of tasks).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function option(args, name) {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
}

/** The queries and lessons folder of a repository in either layout. */
function loadRepository(dir) {
  if (fs.existsSync(path.join(dir, 'queries.json'))) {
    return { queries: JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')), lessonsRoot: dir };
  }
  const tasks = JSON.parse(fs.readFileSync(path.join(dir, 'tasks.json'), 'utf8'));
  const queries = tasks.map((t) => ({
    id: t.id,
    task: t.task ?? '',
    hook: t.hook ? { tool: t.hook.tool ?? null, path: t.hook.paths?.[0] ?? null, command: t.hook.command ?? null } : null,
  }));
  return { queries, lessonsRoot: path.join(dir, 'corpus') };
}

function git(cwd, ...args) {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

function prepare(lessonsRoot, bin) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-snapshot-'));
  fs.cpSync(path.join(lessonsRoot, 'lessons'), path.join(dir, 'lessons'), { recursive: true });
  fs.rmSync(path.join(dir, 'lessons', 'index.json'), { force: true });
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 'snapshot@example.com');
  git(dir, 'config', 'user.name', 'snapshot');
  execFileSync(process.execPath, [bin, '-C', dir, 'index'], { stdio: 'ignore' });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'lessons');
  return dir;
}

function hookFlags(hook) {
  const flags = [];
  if (hook.tool) flags.push('--tool', hook.tool);
  if (hook.path) flags.push('--path', hook.path);
  if (hook.command) flags.push('--command', hook.command);
  return flags;
}

/** Each run's name and arguments (after `-C <dir> preflight`) for one query. */
function runsOf(query) {
  const runs = [];
  if (query.task) {
    runs.push(['task json', [query.task, '--json'], true]);
    runs.push(['task text', [query.task], false]);
  }
  if (query.hook) {
    runs.push(['hook json', [...hookFlags(query.hook), '--json'], false]);
    runs.push(['hook text', hookFlags(query.hook), false]);
    if (query.task) runs.push(['task+hook json', [query.task, ...hookFlags(query.hook), '--json'], false]);
  }
  return runs;
}

function snapshot(repositories, bin, esmBin) {
  const outputs = {};
  for (const repository of repositories) {
    const { queries, lessonsRoot } = loadRepository(repository);
    const dir = prepare(lessonsRoot, bin);
    try {
      for (const query of queries) {
        for (const [name, args, alsoEsm] of runsOf(query)) {
          for (const [which, file] of alsoEsm && esmBin ? [['', bin], [' (lessons.js)', esmBin]] : [['', bin]]) {
            const result = spawnSync(process.execPath, [file, '-C', dir, 'preflight', ...args], { encoding: 'utf8' });
            outputs[`${path.basename(repository)} ${query.id} ${name}${which}`] = { status: result.status, stdout: result.stdout, stderr: result.stderr };
          }
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return outputs;
}

const args = process.argv.slice(2);
const out = option(args, '--out');
const against = option(args, '--against');
const bin = path.resolve(option(args, '--bin') ?? path.join(root, 'dist/cli/lessons.cjs'));
const esmBin = bin === path.join(root, 'dist/cli/lessons.cjs') ? path.join(root, 'dist/cli/lessons.js') : undefined;
if ((out === undefined) === (against === undefined) || args.length === 0) {
  process.stderr.write('usage: node scripts/preflight-snapshot.mjs (--out <file> | --against <file>) [--bin <lessons.cjs>] <repository>...\n');
  process.exit(2);
}
const outputs = snapshot(args, bin, esmBin);
if (out !== undefined) {
  fs.writeFileSync(out, `${JSON.stringify(outputs, null, 1)}\n`);
  process.stdout.write(`${Object.keys(outputs).length} runs written to ${out}\n`);
} else {
  const before = JSON.parse(fs.readFileSync(against, 'utf8'));
  const names = [...new Set([...Object.keys(before), ...Object.keys(outputs)])].sort();
  const differing = names.filter((name) => JSON.stringify(before[name]) !== JSON.stringify(outputs[name]));
  for (const name of differing) process.stdout.write(`differs: ${name}\n`);
  process.stdout.write(`${names.length - differing.length} of ${names.length} runs identical\n`);
  process.exitCode = differing.length > 0 ? 1 : 0;
}
