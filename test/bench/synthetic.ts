import fs from 'node:fs';
import path from 'node:path';
import { LEVEL_FOLDERS, emptyTriggers, type Lesson, type Level } from '../../src/lesson/model.js';
import { serializeLesson } from '../../src/lesson/serialize.js';

/** A small deterministic PRNG (mulberry32), so a seed always gives the same repository. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = ['release', 'migration', 'cache', 'token', 'hook', 'lockfile', 'deploy', 'queue', 'index', 'cron', 'webhook', 'schema', 'certificate', 'feature-flag', 'retry', 'timeout', 'upload', 'session', 'dns', 'container', 'terraform', 'changelog', 'manifest', 'backfill', 'replica', 'pagination', 'locale', 'timezone', 'invoice', 'email'];
const VERBS = ['missed', 'broke', 'leaked', 'locked', 'skipped', 'duplicated', 'corrupted', 'delayed', 'dropped', 'overwrote', 'ignored', 'stalled'];
const PLACES = ['in production', 'during the release', 'on the main branch', 'in CI', 'after the upgrade', 'in the nightly job', 'for EU customers', 'in staging', 'on mobile', 'in the billing service'];
const ACTIONS = ['Check', 'Verify', 'Pin', 'Rotate', 'Document', 'Test', 'Review', 'Automate', 'Alert on', 'Roll back'];
const TOOLS = ['Edit', 'Write', 'Bash', 'MultiEdit'];
const PATHS = ['**/package.json', 'migrations/**', '.github/workflows/*.yml', '**/*.tf', 'src/**/*.ts', 'Dockerfile', '**/.env*', 'db/schema.sql'];
const COMMANDS = ['npm publish*', 'git push --force*', 'terraform apply*', 'kubectl apply*', 'git tag*', 'docker push*'];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

function date(rand: () => number): string {
  const day = new Date(Date.UTC(2026, 0, 1) + Math.floor(rand() * 300) * 86_400_000);
  return day.toISOString().slice(0, 10);
}

/** One synthetic lesson; `n` makes ids unique. */
export function syntheticLesson(rand: () => number, n: number, level: Level, caseIds: string[], patternIds: string[]): Lesson {
  const subject = pick(rand, SUBJECTS);
  const other = pick(rand, SUBJECTS);
  const title = `${subject} ${pick(rand, VERBS)} ${other} ${pick(rand, PLACES)} (${n})`;
  const id = `${level}-${n}-${subject}-${other}`.replace(/[^a-z0-9-]+/g, '-');
  const checklist = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => `${pick(rand, ACTIONS)} the ${pick(rand, SUBJECTS)} before the ${pick(rand, SUBJECTS)} step`);
  const triggers = emptyTriggers();
  if (rand() < 0.3) {
    triggers.tools = [pick(rand, TOOLS)];
    triggers.paths = [pick(rand, PATHS)];
  }
  if (rand() < 0.15) triggers.commands = [pick(rand, COMMANDS)];
  if (rand() < 0.5) triggers.keywords = [subject, `${subject} ${other}`];
  const created = date(rand);
  return {
    id,
    title,
    level,
    status: rand() < 0.03 ? 'retired' : rand() < 0.2 ? 'candidate' : rand() < 0.6 ? 'validated' : 'canonical',
    severity: pick(rand, ['low', 'medium', 'medium', 'high', 'critical'] as const),
    tags: [...new Set([subject, other])],
    confidence: 1 + Math.floor(rand() * 5),
    transferability: 1 + Math.floor(rand() * 5),
    source: rand() < 0.2 ? 'auto' : 'curated',
    occurrences: 1 + Math.floor(rand() * 4),
    created_at: created,
    last_seen: created,
    last_validated_at: created,
    summary: `The ${subject} ${pick(rand, VERBS)} the ${other} ${pick(rand, PLACES)}; nobody checked it before the change went out.`,
    project: null,
    source_case_ids: level === 'pattern' ? [pick(rand, caseIds), pick(rand, caseIds)].filter((v, i, a) => a.indexOf(v) === i) : [],
    applications: level === 'pattern' ? [{ context: pick(rand, PLACES).replace(/\W+/g, '-'), ref: `PR #${n}`, validated_at: created }] : [],
    source_pattern_ids: level === 'principle' ? [pick(rand, patternIds)] : [],
    duplicate_of: null,
    superseded_by: null,
    retired_reason: null,
    promoted_to: [],
    triggers,
    extra: {},
    body: `## Situation\n\nWe changed the ${subject} ${pick(rand, PLACES)}.\n\n## Mistake\n\nThe ${other} was not checked.\n\n## Root Cause\n\nNo step covered the ${other}.\n\n## Fix\n\nAdded the check.\n\n## Prevention Checklist\n\n${checklist.map((item) => `- [ ] ${item}`).join('\n')}\n`,
  };
}

/**
 * Writes `count` lessons (80% cases, 15% patterns, 5% principles) under `dir/lessons/` and returns
 * their ids. The lessons parse; they are not meant to pass every lint rule.
 */
export function generateRepo(dir: string, count: number, seed = 1): string[] {
  const rand = random(seed);
  for (const folder of Object.values(LEVEL_FOLDERS)) fs.mkdirSync(path.join(dir, 'lessons', folder), { recursive: true });
  const caseIds: string[] = [];
  const patternIds: string[] = [];
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const level: Level = n < count * 0.8 || caseIds.length < 2 ? 'case' : n < count * 0.95 || patternIds.length === 0 ? 'pattern' : 'principle';
    const lesson = syntheticLesson(rand, n, level, caseIds, patternIds);
    if (level === 'case') caseIds.push(lesson.id);
    if (level === 'pattern') patternIds.push(lesson.id);
    ids.push(lesson.id);
    fs.writeFileSync(path.join(dir, 'lessons', LEVEL_FOLDERS[level], `${lesson.id}.md`), serializeLesson(lesson));
  }
  return ids;
}
