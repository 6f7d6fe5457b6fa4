import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runGuard } from '../../src/guard/guard.js';
import { compileSecretRules } from '../../src/secrets/rules.js';
import { lessonSecretScan, lessonSecrets, scanSecrets } from '../../src/secrets/scan.js';
import { GENERATED } from '../../src/export/targets.js';
import * as snapshot from '../../src/guard/snapshot.js';
import { FILE_CACHE_DIR } from '../../src/store/file-cache.js';
import { openRepo } from '../../src/io/git/repo.js';
import * as cachedLoad from '../../src/store/worktree.js';
import { transitionFindings } from '../../src/lesson/transitions.js';
import { fileFindings, lintTree } from '../../src/lint/lint.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { compareStrings } from '../../src/util/compare.js';
import { toIsoDate } from '../../src/util/dates.js';
import { committedLessonsRepo, stageIndex } from '../helpers/guard.js';
import { lessonText } from '../helpers/lessons.js';
import { corpus, mutate, random } from '../helpers/mutations.js';
import { git, writeFiles } from '../helpers/repo.js';

vi.mock('../../src/store/worktree.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/store/worktree.js')>();
  return { ...original, loadFacts: vi.fn(original.loadFacts) };
});

const NOW = new Date('2026-06-01T12:00:00Z');
const TABLE = `${FILE_CACHE_DIR}/staged-table`;
const DELTA = `${FILE_CACHE_DIR}/staged-table.delta`;

/** The schema, promotion and secrets gates' findings as the guard would find them reading both whole trees. */
async function wholeTreeFindings(root: string, range?: { base: string; head: string }): Promise<string[]> {
  const repo = await openRepo(root);
  const cache = cachedLoad.openLessonCache(root);
  const rules = compileSecretRules(DEFAULT_POLICY.secrets);
  if ('error' in rules) throw new Error(rules.error);
  const wanted = { fileFindings: (item: Parameters<typeof fileFindings>[0]) => fileFindings(item, (data) => validateAgainst('lesson', data)), secrets: lessonSecretScan(DEFAULT_POLICY, rules) };
  const head = range ? await snapshot.commitSnapshot(repo, root, range.head, cache, wanted) : await snapshot.indexSnapshot(repo, root, cache, wanted);
  const base = await snapshot.commitSnapshot(repo, root, range?.base ?? git(root, 'rev-parse', 'HEAD').trim(), cache, {});
  const lint = lintTree({ tree: head.tree, policy: DEFAULT_POLICY, today: toIsoDate(NOW), schemaErrors: () => [] }).findings.filter((finding) => finding.severity === 'error');
  const side = (snap: snapshot.Snapshot) => snap.tree.lessons.map(({ lesson, path: rel }) => ({ lesson, path: rel }));
  const secrets = await scanSecrets(DEFAULT_POLICY, rules, head, [], cache, lessonSecrets(head), GENERATED);
  return [
    ...lint.map((f) => `schema ${f.rule} ${f.file}:${f.line ?? 0} ${f.message}`),
    ...transitionFindings(side(base), side(head)).map((f) => `promotion ${f.rule} ${f.file}:${f.line ?? 0} ${f.message}`),
    ...secrets.map((m) => `secrets ${m.rule} ${m.file}:${m.line} ${m.masked}`),
  ].sort(compareStrings);
}

async function guardFindings(root: string, range?: { base: string; head: string }, now = NOW): Promise<string[]> {
  const report = range
    ? await runGuard({ cwd: root, stage: 'pre-push', now, env: { PRE_COMMIT_FROM_REF: range.base, PRE_COMMIT_TO_REF: range.head } })
    : await runGuard({ cwd: root, stage: 'pre-commit', now, env: {} });
  return report.findings
    .filter((f) => f.gate === 'schema' || f.gate === 'promotion' || f.gate === 'secrets')
    .map((f) => (f.gate === 'secrets' ? `secrets ${f.rule} ${f.file}:${f.line ?? 0} ${/credential \((.*)\): remove it/.exec(f.message)![1]}` : `${f.gate} ${f.rule} ${f.file}:${f.line ?? 0} ${f.message}`))
    .sort(compareStrings);
}

/** How many lesson files the last guard run read the facts of. */
function factsRead(): number {
  const items = vi.mocked(cachedLoad.loadFacts).mock.calls.flatMap(([listed]) => listed);
  // Facts are cached by full blob id (an abbreviated one would be another key).
  for (const item of items) expect(item.blob).toMatch(/^[0-9a-f]{40}$/);
  const count = items.length;
  vi.mocked(cachedLoad.loadFacts).mockClear();
  return count;
}

describe('the pre-commit guard on the staged tree', () => {
  it('finds what reading both whole trees finds, after random changes, reading only what a change touches', async () => {
    const root = await committedLessonsRepo(corpus());
    const first = git(root, 'rev-parse', 'HEAD').trim();
    const next = random(17);
    const total = 35;
    const exists = (file: string): boolean => fs.existsSync(path.join(root, file));
    expect(await guardFindings(root)).toEqual(await wholeTreeFindings(root));
    let deltasRead = 0;
    let basesRewritten = 0;
    for (let round = 1; round <= 16; round++) {
      const changes = round === 10 ? 20 : 1 + Math.floor(next() * 3);
      for (let i = 0; i < changes; i++) mutate(root, next, round);
      if (round % 3 === 0) {
        // The index is built only from lessons that parse, with unique ids.
        for (const name of fs.readdirSync(path.join(root, 'lessons/cases'))) if (/^(broken|a-dup)-/.test(name)) fs.rmSync(path.join(root, 'lessons/cases', name));
        await stageIndex(root);
      } else git(root, 'add', '-A');
      const hadDelta = exists(DELTA);
      deltasRead += Number(hadDelta);
      factsRead();
      const found = await guardFindings(root);
      if (hadDelta && !exists(DELTA)) basesRewritten++;
      expect(found).toEqual(await wholeTreeFindings(root));
      if (round % 8 === 0) {
        // Without the table every file is read again, to the same findings.
        fs.rmSync(path.join(root, TABLE));
        fs.rmSync(path.join(root, DELTA), { force: true });
        factsRead();
        expect(await guardFindings(root)).toEqual(found);
        expect(factsRead()).toBeGreaterThanOrEqual(total - 5);
      }
      if (round % 4 === 0) {
        git(root, 'commit', '-q', '--no-verify', '-m', `round ${round}`);
        // The pushed range goes through the same table: the commits since the first, and since the last push.
        const head = git(root, 'rev-parse', 'HEAD').trim();
        for (const base of [first, git(root, 'rev-parse', 'HEAD~1').trim()]) expect(await guardFindings(root, { base, head })).toEqual(await wholeTreeFindings(root, { base, head }));
      }
    }
    // Both ways of keeping the table were taken: a delta read on top of its base, and a base written again once the delta grew.
    expect(deltasRead).toBeGreaterThan(3);
    expect(basesRewritten).toBeGreaterThan(0);
    for (const name of fs.readdirSync(path.join(root, 'lessons/cases'))) if (/^(broken|a-dup)-/.test(name)) fs.rmSync(path.join(root, 'lessons/cases', name));
    await stageIndex(root);
    await guardFindings(root);
    // One case retitled: that file, the lessons that looked its id up, and what their rules look up are read; not the tree.
    const one = fs.readdirSync(path.join(root, 'lessons/cases')).find((name) => name.startsWith('case-c'))!;
    const file = path.join(root, 'lessons/cases', one);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Retitled once more'));
    await stageIndex(root);
    factsRead();
    const found = await guardFindings(root);
    expect(factsRead()).toBeLessThan(10);
    expect(found).toEqual(await wholeTreeFindings(root));
    // Nothing changed since: only the staged lesson changes are read, both versions (for the promotion rules), none of the rest.
    factsRead();
    await guardFindings(root);
    const staged = git(root, 'diff', '--cached', '--name-only', '--', 'lessons/cases', 'lessons/patterns', 'lessons/principles').split('\n').filter((line) => line.endsWith('.md'));
    expect(factsRead()).toBeLessThanOrEqual(2 * staged.length);
    git(root, 'commit', '-q', '--no-verify', '-m', 'the rest');
    factsRead();
    await guardFindings(root);
    expect(factsRead()).toBe(0);
  }, 60_000);

  it('keeps its table from one day to the next: its rows keep errors, and no error depends on the day', async () => {
    const root = await committedLessonsRepo(corpus());
    // A lesson validated long ago: stale (a warning) on the later day only.
    writeFiles(root, { 'lessons/cases/case-c1.md': lessonText({ id: 'case-c1', title: 'Case 1', status: 'retired' }), 'lessons/cases/case-old.md': lessonText({ id: 'case-old', last_validated_at: '2026-01-01' }) });
    await stageIndex(root);
    await guardFindings(root);
    factsRead();
    // What a check of the same staged tree reads again on the same day (HEAD's side of the changed lessons), and no more on a later one.
    const expected = await guardFindings(root);
    const sameDay = factsRead();
    const later = new Date('2027-09-01T12:00:00Z');
    expect(await guardFindings(root, undefined, later)).toEqual(expected);
    expect(factsRead()).toBe(sameDay);
    expect(sameDay).toBeLessThan(5);
    const stale = lintTree({ tree: (await snapshot.indexSnapshot(await openRepo(root), root, cachedLoad.openLessonCache(root), {})).tree, policy: DEFAULT_POLICY, today: toIsoDate(later), schemaErrors: () => [] }).findings;
    expect(stale).toContainEqual(expect.objectContaining({ rule: 'stale', file: 'lessons/cases/case-old.md' }));
  });

  it('ignores a table that is corrupt, or of another policy, and checks the whole tree', async () => {
    const root = await committedLessonsRepo(corpus());
    writeFiles(root, { 'lessons/cases/case-c1.md': lessonText({ id: 'case-c1', title: 'Case 1', status: 'retired' }) });
    await stageIndex(root);
    const expected = await guardFindings(root);
    expect(expected.some((line) => line.includes('retirement'))).toBe(true);
    const table = path.join(root, TABLE);
    for (const damage of [
      () => fs.writeFileSync(table, '{"key":'),
      () => fs.writeFileSync(table, fs.readFileSync(table, 'utf8').replace('"today":null', '"today":"2026-05-31"')),
      () => fs.writeFileSync(table, fs.readFileSync(table, 'utf8').replace(/"cache":"[0-9a-f]+"/, '"cache":"another"')),
    ]) {
      damage();
      factsRead();
      expect(await guardFindings(root)).toEqual(expected);
      expect(factsRead()).toBeGreaterThan(30);
    }
  });
});
