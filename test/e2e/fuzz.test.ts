/**
 * A seeded mutation fuzzer over this repository's own lessons: each tree gets a few mutations
 * of the kinds real trees break in, then goes through lint, index, preflight, the pre-commit
 * guard and the agent hook. Every run must end within its time bound with exit 0, 1 or 2 (the
 * hook always 0), print no stack trace, and a refusal must leave the tree as it was. A failure
 * names the seed: LESSONS_FUZZ_SEED=<seed> reproduces it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pick, seededRandom } from '../helpers/random.js';
import { PACKAGE_ROOT, git, initGitRepo, runCli, tempDir } from '../helpers/repo.js';

const SEED = Number(process.env.LESSONS_FUZZ_SEED ?? 1313);
const TREES = Number(process.env.LESSONS_FUZZ_TREES ?? 6);
const RUN_TIMEOUT_MS = 20_000;

type Random = () => number;
type Mutation = (random: Random, root: string, file: string, outside: string) => string;

const bytes = (file: string) => fs.readFileSync(file);
const put = (file: string, content: string | Buffer) => fs.writeFileSync(file, content);
const text = (file: string) => fs.readFileSync(file, 'utf8');
/** `text` with a frontmatter line added after the opening `---`. */
const withField = (file: string, line: string) => put(file, text(file).replace(/^---\n/, `---\n${line}\n`));

/** Each mutation changes one lesson file (or what stands at its path) and says what it did. */
const MUTATIONS: Record<string, Mutation> = {
  truncate: (random, _root, file) => {
    const content = bytes(file);
    put(file, content.subarray(0, Math.floor(random() * content.length)));
    return 'truncated';
  },
  'byte flips': (random, _root, file) => {
    const content = Buffer.from(bytes(file));
    for (let i = 0; i < 1 + Math.floor(random() * 8); i++) content[Math.floor(random() * content.length)] = Math.floor(random() * 256);
    put(file, content);
    return 'flipped bytes';
  },
  'invalid UTF-8': (random, _root, file) => {
    const content = bytes(file);
    const at = Math.floor(random() * content.length);
    put(file, Buffer.concat([content.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), content.subarray(at)]));
    return 'invalid UTF-8';
  },
  tabs: (_random, _root, file) => {
    put(file, text(file).replace(/\n(\w)/, '\n\t$1'));
    return 'tab indentation';
  },
  aliases: (_random, _root, file) => {
    withField(file, 'anchors: &shared [release, ci]\nalias_use: *shared');
    return 'aliases';
  },
  'alias bomb': (random, _root, file) => {
    const depth = 6 + Math.floor(random() * 4);
    const lines = ['b0: &b0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= depth; i++) lines.push(`b${i}: &b${i} [${Array(9).fill(`*b${i - 1}`).join(', ')}]`);
    withField(file, lines.join('\n'));
    return `alias bomb depth ${depth}`;
  },
  '---js': (_random, _root, file) => {
    put(file, text(file).replace(/^---\n/, "---js\n{ id: (function () { require('fs').writeFileSync('pwned', 'x'); return 'x'; })() }\n---\n"));
    return '---js frontmatter';
  },
  'huge string': (random, _root, file) => {
    withField(file, `huge: "${'a'.repeat(50_000 + Math.floor(random() * 2_000_000))}"`);
    return 'huge string';
  },
  'deep nesting': (random, _root, file) => {
    const depth = 20 + Math.floor(random() * 5000);
    withField(file, `deep: ${'['.repeat(depth)}${']'.repeat(depth)}`);
    return `nesting ${depth}`;
  },
  'wrong types': (random, _root, file) => {
    const field = pick(random, ['tags: 7', 'title: [a, b]', 'status: {x: 1}', 'confidence: "high"', 'triggers: nope', 'id: 42', 'level: null']);
    put(file, text(file).replace(new RegExp(`^${field.split(':')[0]}:.*$`, 'm'), field));
    return `wrong type (${field})`;
  },
  'duplicate keys': (_random, _root, file) => {
    withField(file, 'title: One\ntitle: Two');
    return 'duplicate keys';
  },
  'NUL bytes': (random, _root, file) => {
    const content = bytes(file);
    const at = Math.floor(random() * content.length);
    put(file, Buffer.concat([content.subarray(0, at), Buffer.from([0]), content.subarray(at)]));
    return 'NUL byte';
  },
  'long line': (random, _root, file) => {
    put(file, `${text(file)}\n${'word '.repeat(10_000 + Math.floor(random() * 200_000))}\n`);
    return 'long line';
  },
  'CRLF and BOM': (random, _root, file) => {
    const body = text(file);
    const mixed = body.split('\n').map((line) => (random() < 0.5 ? `${line}\r` : line)).join('\n');
    put(file, random() < 0.5 ? `\uFEFF${mixed}` : mixed);
    return 'CRLF/BOM mix';
  },
  'homoglyph id': (_random, _root, file) => {
    put(file, text(file).replace(/^id: (\S+)$/m, (_line, id: string) => `id: ${id.replace(/a/, '\u0430').replace(/e/, '\u0435')}`));
    return 'homoglyph id';
  },
  FIFO: (_random, _root, file) => {
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    return 'FIFO';
  },
  symlink: (random, root, file, outside) => {
    fs.rmSync(file);
    const target = pick(random, [path.join(outside, 'outside.md'), path.join(root, 'lessons'), path.join(root, 'nowhere.md'), path.join(root, 'lessons/index.json')]);
    fs.symlinkSync(target, file);
    return `symlink to ${path.relative(root, target)}`;
  },
};

/** Every regular file under `dir` (links and FIFOs by what they are), for "nothing written" checks. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    if (rel.startsWith('.git') || rel.startsWith('.lessons')) continue;
    if (entry.isSymbolicLink()) files[rel] = `-> ${fs.readlinkSync(full)}`;
    else if (entry.isFIFO()) files[rel] = 'fifo';
    else if (entry.isFile()) files[rel] = fs.readFileSync(full).toString('base64');
  }
  return files;
}

const SOURCE = fs
  .readdirSync(path.join(PACKAGE_ROOT, 'lessons'), { recursive: true })
  .map(String)
  .filter((rel) => rel.endsWith('.md'))
  .sort();

/**
 * A committed lessons repository with a handful of this repository's lessons, then mutated
 * (three mutations, taking `kinds` in turn, so a run of six trees covers every kind) and staged.
 */
function mutatedTree(random: Random, kinds: () => string): { root: string; applied: string[] } {
  const root = initGitRepo(tempDir('lessons-fuzz-'));
  const outside = tempDir('lessons-fuzz-outside-');
  fs.writeFileSync(path.join(outside, 'outside.md'), fs.readFileSync(path.join(PACKAGE_ROOT, 'lessons', SOURCE[0]!)));
  fs.mkdirSync(path.join(root, 'policy'));
  fs.copyFileSync(path.join(PACKAGE_ROOT, 'policy/workflow-policy.json'), path.join(root, 'policy/workflow-policy.json'));
  for (const folder of ['cases', 'patterns', 'principles']) fs.mkdirSync(path.join(root, 'lessons', folder), { recursive: true });
  const chosen = [...new Set(Array.from({ length: 6 }, () => pick(random, SOURCE)))];
  for (const rel of chosen) fs.copyFileSync(path.join(PACKAGE_ROOT, 'lessons', rel), path.join(root, 'lessons', rel));
  fs.writeFileSync(path.join(root, '.gitignore'), '.lessons/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', 'base');
  const applied: string[] = [];
  const late: [string, string][] = [];
  for (let i = 0; i < 3; i++) {
    const rel = pick(random, chosen);
    const file = path.join(root, 'lessons', rel);
    const kind = kinds();
    if (!fs.lstatSync(file).isFile()) continue;
    // git cannot stage a FIFO: those are made after staging, in the working tree only.
    if (kind === 'FIFO') late.push([kind, file]);
    else applied.push(`${rel}: ${MUTATIONS[kind]!(random, root, file, outside)}`);
  }
  git(root, 'add', '-A');
  for (const [kind, file] of late) applied.push(`${path.relative(root, file)}: ${MUTATIONS[kind]!(random, root, file, outside)}`);
  return { root, applied };
}

const COMMANDS: { name: string; args: string[]; input?: (root: string) => string; writes?: boolean }[] = [
  { name: 'lint', args: ['lint'] },
  { name: 'index', args: ['index'], writes: true },
  { name: 'preflight', args: ['preflight', 'bump the version and publish a release'] },
  { name: 'guard', args: ['guard', '--stage', 'pre-commit'] },
  { name: 'hook', args: ['hook', 'claude'], input: (root) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(root, 'package.json') }, cwd: root }) },
];

describe(`seeded fuzz of this repository's lessons (seed ${SEED}, ${TREES} trees)`, () => {
  it('every tree: bounded time, exit 0/1/2, no stack trace, nothing written on refusal', () => {
    const random = seededRandom(SEED);
    const order = Object.keys(MUTATIONS).sort(() => random() - 0.5);
    let next = 0;
    const kinds = () => order[next++ % order.length]!;
    for (let tree = 0; tree < TREES; tree++) {
      const { root, applied } = mutatedTree(random, kinds);
      const where = `seed ${SEED}, tree ${tree} (${applied.join('; ')})`;
      for (const command of COMMANDS) {
        const before = snapshot(root);
        const started = Date.now();
        const result = runCli(command.args, { cwd: root, input: command.input?.(root) ?? '', timeoutMs: RUN_TIMEOUT_MS, env: { GITHUB_ACTIONS: '', LESSONS_DISABLE: '' } });
        const context = `${command.name} on ${where}: exit ${result.exitCode} after ${Date.now() - started} ms\n${result.stderr.slice(0, 400)}`;
        expect(result.exitCode, context).not.toBe(-1);
        expect(command.name === 'hook' ? [0] : [0, 1, 2], context).toContain(result.exitCode);
        expect(result.stdout + result.stderr, context).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
        if (result.exitCode !== 0 || !command.writes) expect(snapshot(root), `${context}\nwrote files`).toEqual(before);
      }
      expect(fs.existsSync(path.join(root, 'pwned')), where).toBe(false);
    }
  }, 120_000);
});
