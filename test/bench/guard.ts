import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIndex } from '../../src/store/index-write.js';
import { BIN, runOnce, summarize } from './shared.js';

const POLICY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../policy/workflow-policy.json');

const LESSONS = 1000;
const STAGED_FILES = 10;
const RUNS = 15;

const GIT_ENV = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

const LEVEL_OF = (i: number): 'case' | 'pattern' | 'principle' => (i % 10 === 9 ? 'principle' : i % 3 === 2 ? 'pattern' : 'case');
const FOLDER = { case: 'cases', pattern: 'patterns', principle: 'principles' } as const;
const WORDS = ['release', 'manifest', 'cache', 'migration', 'schema', 'deploy', 'token', 'retry', 'index', 'hook', 'review', 'test'];

const idOf = (i: number): string => `${LEVEL_OF(i)}-bench-${String(i).padStart(4, '0')}`;

/** The nearest lessons of a level before `i` (the generator's sources). */
function before(i: number, level: 'case' | 'pattern', count: number): string[] {
  const ids: string[] = [];
  for (let j = i - 1; j >= 0 && ids.length < count; j--) if (LEVEL_OF(j) === level) ids.push(idOf(j));
  return ids;
}

/** Provenance that lint accepts: patterns cite two cases and three applications, principles a pattern. */
function provenance(i: number): string {
  const level = LEVEL_OF(i);
  if (level === 'pattern') {
    const apps = ['web', 'cli', 'api'].map((context) => `  - { context: ${context}, ref: "PR #${i}", validated_at: 2026-10-01 }`).join('\n');
    return `source_case_ids: [${before(i, 'case', 2).join(', ')}]\napplications:\n${apps}\n`;
  }
  if (level === 'principle') return `source_pattern_ids: [${before(i, 'pattern', 1).join(', ')}]\n`;
  return '';
}

/** A small deterministic lesson. */
function lesson(i: number, edit = ''): { file: string; text: string } {
  const level = LEVEL_OF(i);
  const id = idOf(i);
  const tags = [WORDS[i % WORDS.length], WORDS[(i * 7) % WORDS.length]];
  const status = level === 'case' ? 'validated' : 'candidate';
  const text = `---
id: ${id}
title: Bench lesson ${i} about ${tags.join(' and ')}
level: ${level}
status: ${status}
tags: [${[...new Set(tags)].join(', ')}]
summary: Lesson ${i} about the ${tags[0]}.
created_at: 2026-01-01
last_validated_at: 2026-11-01
${provenance(i)}---

## Situation

Lesson ${i} happened while working on the ${tags[0]}.${edit}

## Prevention Checklist

- [ ] Check the ${tags[0]} before the ${tags[1]}.
- [ ] Write down what changed.
`;
  return { file: `lessons/${FOLDER[level]}/${id}.md`, text };
}

async function buildRepo(dir: string): Promise<void> {
  for (const folder of Object.values(FOLDER)) fs.mkdirSync(path.join(dir, 'lessons', folder), { recursive: true });
  fs.mkdirSync(path.join(dir, 'policy'));
  fs.copyFileSync(POLICY, path.join(dir, 'policy/workflow-policy.json'));
  for (let i = 0; i < LESSONS; i++) {
    const { file, text } = lesson(i);
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.writeFileSync(path.join(dir, '.gitignore'), '.lessons/\n');
  await writeIndex({ cwd: dir });
  const git = (...args: string[]) => runOnce('git', args, { cwd: dir, env: GIT_ENV });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'bench lessons');
}

/**
 * A new staged change: ten lessons whose bodies gain a sentence (the summary field keeps
 * the index as it is), so every run meets ten lessons it has not parsed before.
 */
function stageChange(dir: string, round: number): void {
  for (let i = 0; i < STAGED_FILES; i++) {
    const { file, text } = lesson(i * 97 + 1, ` Edited in round ${round}.`);
    fs.writeFileSync(path.join(dir, file), text);
  }
  runOnce('git', ['add', '-A'], { cwd: dir, env: GIT_ENV });
}

/**
 * A lesson of 1 MiB whose body is the shapes that made the secrets scan quadratic (a run of
 * `ey-`, of `token`, of `password=`, of escapes and entities, split lines, a base64 blob),
 * 64 KiB each, between lines of prose: every scan must be linear in it.
 */
export function longLesson(id: string): string {
  const shapes = ['ey-', 'token', 'password=', 'tok\\_en', '&#103;', '%67h', 'a\u200b', 'QUJDREVG', 'xoxb-1-', 'AKIA', 'abc1Q~', 'glpat-', '12345:A', 'Basic ', 'ab\n', 'The deploy cache went stale. '];
  const body = shapes.map((shape) => `${shape.repeat(Math.ceil(64 * 1024 / shape.length)).slice(0, 64 * 1024)}\n\nA line of prose between the shapes.\n\n`).join('');
  return `---\nid: ${id}\ntitle: A very long lesson\nlevel: case\nstatus: candidate\ntags: [bench]\nsummary: One long lesson.\ncreated_at: 2026-01-01\n---\n\n## Situation\n\n${body}\n## Prevention Checklist\n\n- [ ] Keep lessons short.\n`;
}

/** `lessons guard --stage pre-commit` with a 1 MiB lesson staged (secrets scan included): the target is under 1 s. */
function benchLongLesson(dir: string, opts: { cwd: string; env: Record<string, string> }): number {
  const file = path.join(dir, 'lessons/cases/case-bench-long.md');
  fs.writeFileSync(file, longLesson('case-bench-long'));
  runOnce('git', ['add', '-A'], opts);
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    // A new blob each run: the scan is not taken from the cache.
    fs.appendFileSync(file, `\nRun ${i}.\n`);
    runOnce('git', ['add', '-A'], opts);
    samples.push(runOnce(process.execPath, [BIN, 'guard', '--stage', 'pre-commit'], opts));
  }
  return summarize('', samples).median;
}

/** Whole-process time of `lessons guard --stage pre-commit` beside `node -e 0` and `git status`. */
export async function bench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-guard-'));
  try {
    await buildRepo(dir);
    const samples = { node: [] as number[], git: [] as number[], guard: [] as number[], again: [] as number[] };
    // The first run parses every lesson and fills .lessons/cache; later commits re-parse only what they change.
    stageChange(dir, 0);
    const opts = { cwd: dir, env: GIT_ENV };
    const guardArgs = [BIN, 'guard', '--stage', 'pre-commit'];
    const cold = runOnce(process.execPath, guardArgs, opts);
    for (let i = 1; i <= RUNS; i++) {
      stageChange(dir, i);
      samples.node.push(runOnce(process.execPath, ['-e', '0'], opts));
      samples.git.push(runOnce('git', ['status', '--porcelain'], opts));
      samples.guard.push(runOnce(process.execPath, guardArgs, opts));
      samples.again.push(runOnce(process.execPath, guardArgs, opts));
    }
    const [node, gitStatus, guard, again] = [samples.node, samples.git, samples.guard, samples.again].map((values) => summarize('', values).median) as [number, number, number, number];
    console.log(`guard --stage pre-commit: ${LESSONS} lessons, ${STAGED_FILES} staged files, median of ${RUNS} runs`);
    console.log(`  node -e 0                  ${node.toFixed(1)} ms`);
    console.log(`  git status                 ${gitStatus.toFixed(1)} ms`);
    console.log(`  first run (cold cache)     ${cold.toFixed(1)} ms`);
    console.log(`  lessons guard pre-commit   ${guard.toFixed(1)} ms  (${(guard / node).toFixed(2)}x node -e 0, ${(guard / gitStatus).toFixed(1)}x git status; target <= 6x node)`);
    console.log(`  the same change again      ${again.toFixed(1)} ms  (${(again / node).toFixed(2)}x node -e 0)`);
    const long = benchLongLesson(dir, opts);
    console.log(`  a 1 MiB lesson staged      ${long.toFixed(1)} ms  (secrets scan of adversarial shapes; target < 1000 ms)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

