/**
 * Seeded fuzz families of issue #38 "Hardening II", bounded to well under a minute: special
 * files where the CLI reads, giant words, writes through links out of the repository, globs
 * and regular expressions that compile badly or backtrack, nesting, stale locks, malformed MCP
 * requests. Every run must end in time with exit 0, 1 or 2 (the hook and mcp 0), print no
 * internal error or stack, keep every committed file as it was, and write nothing outside.
 * The last test prints the table: tried / crashed / hung / wrong / data lost, per family.
 * A failure names the seed: LESSONS_FUZZ_SEED=<seed> reproduces it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { pick, seededRandom } from '../helpers/random.js';
import { BIN, GIT_ENV, git, initGitRepo, runCli, tempDir, tempLessonsRepo } from '../helpers/repo.js';

const SEED = Number(process.env.LESSONS_FUZZ_SEED ?? 3838);
const RUN_TIMEOUT_MS = 15_000;

type Outcome = 'ok' | 'crashed' | 'hung' | 'wrong' | 'data lost';
const table = new Map<string, Record<Outcome | 'tried', number>>();
const failures: string[] = [];

function record(family: string, outcome: Outcome, what: string): void {
  const row = table.get(family) ?? { tried: 0, ok: 0, crashed: 0, hung: 0, wrong: 0, 'data lost': 0 };
  row.tried++;
  row[outcome]++;
  table.set(family, row);
  if (outcome !== 'ok') failures.push(`${family} (seed ${SEED}): ${outcome}: ${what}`);
}

/** What stands at each committed path of `root` (its kind, and a regular file's bytes): what no run may change. */
function snapshot(root: string): Map<string, string> {
  const files = git(root, 'ls-files').split('\n').filter(Boolean);
  return new Map(
    files.map((file) => {
      const stat = fs.lstatSync(path.join(root, file), { throwIfNoEntry: false });
      const kind = stat === undefined ? 'gone' : stat.isFile() ? `file:${stat.size <= 4 * 1024 * 1024 ? fs.readFileSync(path.join(root, file)).toString('base64') : stat.size}` : stat.isSymbolicLink() ? `link:${fs.readlinkSync(path.join(root, file))}` : stat.isDirectory() ? 'folder' : 'other';
      return [file, kind] as const;
    }),
  );
}

/** The committed paths whose content changed: lessons/index.json only when it went missing (index and the hook rewrite it). */
function changedCommitted(root: string, before: Map<string, string>): string[] {
  const after = snapshot(root);
  return [...before]
    .filter(([file, kind]) => after.get(file) !== kind && !(file === 'lessons/index.json' && kind.startsWith('file:') && after.get(file)!.startsWith('file:')))
    .map(([file]) => `${file} changed`);
}

interface Check {
  family: string;
  root: string;
  args: string[];
  input?: string;
  /** Exit codes this run may end with (default 0, 1, 2). */
  exits?: number[];
  /** Files outside the repository that must stay empty folders. */
  outside?: string;
  /** A bound on the run's time below RUN_TIMEOUT_MS. */
  withinMs?: number;
  /** The index may be rewritten by this run (index, hooks). */
  what: string;
}

/** Runs one case and files its outcome. */
function check(c: Check): void {
  const before = snapshot(c.root);
  const started = Date.now();
  const result = runCli(c.args, { cwd: c.root, input: c.input ?? '', timeoutMs: RUN_TIMEOUT_MS });
  const ms = Date.now() - started;
  const what = `${c.what}: lessons ${c.args.join(' ').slice(0, 80)} -> ${result.exitCode} in ${ms} ms ${result.stderr.slice(0, 200)}`;
  if (result.exitCode === -1 || ms > (c.withinMs ?? RUN_TIMEOUT_MS)) return record(c.family, 'hung', what);
  if (/internal error|\n\s+at |RangeError|Maximum call stack/.test(`${result.stdout}${result.stderr}`)) return record(c.family, 'crashed', what);
  if (!(c.exits ?? [0, 1, 2]).includes(result.exitCode)) return record(c.family, 'wrong', what);
  const lost = changedCommitted(c.root, before);
  if (lost.length > 0) return record(c.family, 'data lost', `${what}: ${lost.join(', ')}`);
  if (c.outside !== undefined && fs.readdirSync(c.outside).length > 0) return record(c.family, 'data lost', `${what}: wrote ${fs.readdirSync(c.outside).join(', ')} outside the repository`);
  record(c.family, 'ok', what);
}

/** A committed lessons repository of three lessons with an index. */
function repo(): string {
  const root = initGitRepo(
    tempLessonsRepo({
      ...lessonFile({ id: 'case-2026-01-01-release-bump', title: 'Release bump missed a manifest', tags: ['release'] }),
      ...lessonFile({ id: 'case-2026-01-02-deploy-keystore', title: 'Deploy keystore on one laptop', tags: ['deploy'] }),
      ...lessonFile({ id: 'case-2026-01-03-retry-storm', title: 'Retry storm after an outage', tags: ['retry'] }),
    }),
  );
  runCli(['index'], { cwd: root });
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'lessons');
  return root;
}

/** Puts `make(file)` where `rel` is, and puts the committed file back after `run`. */
function replaced(root: string, rel: string, make: (file: string) => void, run: () => void): void {
  const file = path.join(root, rel);
  fs.rmSync(file, { recursive: true, force: true });
  make(file);
  try {
    run();
  } finally {
    fs.rmSync(file, { recursive: true, force: true });
    git(root, 'checkout', '-q', 'HEAD', '--', rel);
  }
}

const HOOK_INPUT = (root: string) => JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'bump the release', cwd: root });
const COMMANDS: string[][] = [['lint'], ['index'], ['guard', '--stage', 'final'], ['report'], ['preflight', 'bump the release'], ['list']];

describe('fuzz families of #38 (bounded)', () => {
  const random = seededRandom(SEED);

  it('special files: a FIFO, a link to /dev/zero or /dev/stdin, a folder or an oversize file where the CLI reads', () => {
    const root = repo();
    const targets = ['policy/workflow-policy.json', 'lessons/index.json', 'lessons/cases/case-2026-01-03-retry-storm.md'];
    const kinds: Record<string, (file: string) => void> = {
      fifo: (file) => execFileSync('mkfifo', [file]),
      'link to /dev/zero': (file) => fs.symlinkSync('/dev/zero', file),
      'link to /dev/stdin': (file) => fs.symlinkSync('/dev/stdin', file),
      folder: (file) => fs.mkdirSync(file),
      oversize: (file) => fs.writeFileSync(file, Buffer.alloc(5 * 1024 * 1024, 0x20)),
    };
    for (const target of targets) {
      for (const [kind, make] of Object.entries(kinds)) {
        const args = pick(random, COMMANDS);
        replaced(root, target, make, () => check({ family: 'special files', root, args, input: 'piped', what: `${target} as ${kind}` }));
      }
    }
    const hookTarget = pick(random, targets);
    replaced(root, hookTarget, kinds.fifo!, () => check({ family: 'special files', root, args: ['hook', 'claude'], input: HOOK_INPUT(root), exits: [0], what: `${hookTarget} as fifo, the hook` }));
  }, 120_000);

  it('giant words: in a task, an ask question and a lesson body', () => {
    const root = repo();
    const word = (length: number) => Array.from({ length }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    for (const length of [2_000, 40_000, 120_000]) {
      check({ family: 'giant words', root, args: ['ask', `release ${word(length)}`], withinMs: 8_000, exits: [0], what: `ask, a ${length}-character word` });
      check({ family: 'giant words', root, args: ['preflight', `bump ${word(length)} release`], withinMs: 8_000, exits: [0], what: `preflight, a ${length}-character word` });
    }
    const file = path.join(root, 'lessons/cases/case-2026-01-04-giant.md');
    fs.writeFileSync(file, lessonText({ id: 'case-2026-01-04-giant', title: 'Giant release word', tags: ['release'] }, `## Situation\n\n${word(40_000)} release\n\n## Prevention Checklist\n\n- [ ] Keep words short.\n`));
    check({ family: 'giant words', root, args: ['index'], withinMs: 8_000, exits: [0], what: 'index, a 40,000-character word in a new lesson' });
    check({ family: 'giant words', root, args: ['hook', 'claude'], input: HOOK_INPUT(root), withinMs: 8_000, exits: [0], what: 'the hook after it' });
  }, 120_000);

  it('writes outside: .lessons, .lessons/locks or .lessons/sources linked out of the repository', () => {
    for (const link of ['.lessons', '.lessons/locks', '.lessons/sources']) {
      const root = repo();
      const outside = tempDir();
      fs.rmSync(path.join(root, link), { recursive: true, force: true });
      fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
      fs.symlinkSync(outside, path.join(root, link));
      for (const args of [['index'], ['sources', 'update'], pick(random, COMMANDS)]) check({ family: 'writes outside', root, args, outside, what: `${link} linked out` });
      check({ family: 'writes outside', root, args: ['hook', 'claude'], input: HOOK_INPUT(root), exits: [0], outside, what: `${link} linked out, the hook` });
    }
  }, 120_000);

  it('bad globs, patterns and nesting: what lint lets through must not crash or hang later', () => {
    const root = repo();
    const lesson = 'lessons/cases/case-2026-01-01-release-bump.md';
    const globChars = '{},*?[]!/a-';
    for (let i = 0; i < 4; i++) {
      const glob = Array.from({ length: 3 + Math.floor(random() * 10) }, () => pick(random, [...globChars])).join('');
      const paths = [glob, '*a*a*a*a*a*a*b'];
      fs.writeFileSync(path.join(root, lesson), lessonText({ id: 'case-2026-01-01-release-bump', title: 'Release bump missed a manifest', tags: ['release'], triggers: { paths, commands: [glob] } }));
      check({ family: 'globs and patterns', root, args: ['lint'], exits: [0, 1], what: `trigger glob ${JSON.stringify(glob)}` });
      check({ family: 'globs and patterns', root, args: ['preflight', '--path', `${'a'.repeat(200)}c`, '--command', `${'a'.repeat(200)}`, 'bump the release'], exits: [0], withinMs: 8_000, what: `trigger glob ${JSON.stringify(glob)}` });
    }
    git(root, 'checkout', '-q', 'HEAD', '--', lesson);
    const policyFile = path.join(root, 'policy/workflow-policy.json');
    const original = fs.readFileSync(policyFile, 'utf8');
    for (const pattern of ['(a+)+$', '(a*)*b', '(\\w+\\s?)*$', pick(random, ['((ab)*)+', '(x+x+)+y', '(?:a|a)*?c+'])]) {
      const policy = JSON.parse(original);
      policy.secrets = { ...policy.secrets, rules: [...(policy.secrets?.rules ?? []), { name: 'fuzz', pattern }] };
      fs.writeFileSync(policyFile, JSON.stringify(policy));
      fs.appendFileSync(path.join(root, lesson), `\n${'a'.repeat(40)}!\n`);
      check({ family: 'globs and patterns', root, args: ['guard', '--stage', 'final'], withinMs: 10_000, what: `secrets rule ${pattern}` });
      git(root, 'checkout', '-q', 'HEAD', '--', lesson);
    }
    fs.writeFileSync(policyFile, original);
    const depth = 100_000 + Math.floor(random() * 100_000);
    for (const [rel, text] of [
      ['lessons/index.json', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
      ['policy/workflow-policy.json', `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ] as const) {
      fs.writeFileSync(path.join(root, rel), text);
      git(root, 'add', rel);
      for (const args of [['guard', '--stage', 'pre-commit'], pick(random, COMMANDS)]) check({ family: 'globs and patterns', root, args, what: `${rel} nested ${depth} deep` });
      git(root, 'reset', '-q', 'HEAD', '--', rel);
      git(root, 'checkout', '-q', 'HEAD', '--', rel);
    }
  }, 120_000);

  it('stale locks: empty, garbage, or a dead owner', async () => {
    const root = repo();
    const lockFile = path.join(root, '.lessons/locks/lessons.lock');
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    const dead = spawn('sleep', ['30']);
    const deadPid = dead.pid!;
    dead.kill('SIGKILL');
    await new Promise((resolve) => dead.once('exit', resolve));
    const contents = ['', '{', 'not json', JSON.stringify({ pid: deadPid, host: os.hostname(), token: 'x' }), JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'x', start: 1 })];
    for (const content of contents) {
      fs.writeFileSync(lockFile, content);
      const age = new Date(Date.now() - 3_000 - Math.floor(random() * 5_000));
      fs.utimesSync(lockFile, age, age);
      check({ family: 'stale locks', root, args: ['index'], exits: [0], withinMs: 5_000, what: `lock ${JSON.stringify(content).slice(0, 60)}` });
    }
  }, 120_000);

  it('sources update: no sources, or one that fails, leaves no lock to commit', () => {
    const root = repo();
    check({ family: 'federation', root, args: ['sources', 'update'], exits: [0], what: 'no sources' });
    const policyFile = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    policy.sources = [{ name: 'gone', url: path.join(tempDir(), 'nowhere.git'), ref: 'main', path: 'lessons' }];
    fs.writeFileSync(policyFile, JSON.stringify(policy));
    git(root, 'commit', '-qam', 'a source');
    check({ family: 'federation', root, args: ['sources', 'update'], exits: [1], what: 'a failing source' });
    const written = fs.existsSync(path.join(root, 'lessons/sources.lock.json'));
    record('federation', written ? 'wrong' : 'ok', 'no lock file after a failed update');
  }, 60_000);

  it('MCP: every malformed request that carries an id gets a JSON-RPC error', async () => {
    const root = repo();
    const base = { jsonrpc: '2.0', method: 'tools/list', params: {} };
    const mutations: ((id: number) => Record<string, unknown>)[] = [
      (id) => ({ ...base, id, [`x${Math.floor(random() * 100)}`]: 1 }),
      (id) => ({ ...base, id, method: pick(random, [5, null, true, [], {}]) }),
      (id) => ({ ...base, id, params: pick(random, ['x', [1], 3, true]) }),
      (id) => ({ ...base, id, jsonrpc: pick(random, ['1.0', 2, null]) }),
    ];
    const sent = Array.from({ length: 12 }, (_, i) => pick(random, mutations)(100 + i));
    const badIds = [{}, [], 1.5, true].map((id) => ({ ...base, id }));
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      ...[...sent, ...badIds].map((message) => JSON.stringify(message)),
    ];
    const replies = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'mcp', '-C', root], { env: { ...process.env, ...GIT_ENV }, stdio: ['pipe', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('error', reject);
      child.on('exit', () => resolve(out.split('\n').filter(Boolean).map((line) => JSON.parse(line))));
      child.stdin.write(`${lines.join('\n')}\n`);
      setTimeout(() => child.stdin.end(), 1_500);
    });
    for (const message of sent) {
      const reply = replies.find((candidate) => candidate.id === message.id);
      record('mcp', reply !== undefined && 'error' in reply ? 'ok' : 'wrong', `no error reply to ${JSON.stringify(message)}`);
    }
    const nullReplies = replies.filter((reply) => reply.id === null && 'error' in reply).length;
    for (const message of badIds) record('mcp', nullReplies >= badIds.length ? 'ok' : 'wrong', `no error reply (id null) to ${JSON.stringify(message)}`);
  }, 60_000);

  afterAll(() => {
    const rows = [...table].map(([family, row]) => `| ${family} | ${row.tried} | ${row.crashed} | ${row.hung} | ${row.wrong} | ${row['data lost']} |`);
    console.log(['| family | tried | crashed | hung | wrong | data lost |', '|---|---|---|---|---|---|', ...rows].join('\n'));
  });

  it('found nothing: no crash, hang, wrong answer or lost data', () => {
    expect(failures).toEqual([]);
  });
});
