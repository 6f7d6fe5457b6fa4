import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { PACKAGE_ROOT, runCli, tempLessonsRepo } from '../helpers/repo.js';
import { fakeReviewer, setReview } from '../helpers/reviewer.js';
import { REVIEW_POOL } from '../../src/preflight/preflight.js';

function repo(command: string[]): string {
  const root = tempLessonsRepo({
    ...lessonFile({ id: 'case-manifest-version', title: 'Version bump missed the plugin manifest', tags: ['release', 'versioning'] }),
    ...lessonFile({ id: 'case-release-tag', title: 'Release tag pushed before the version bump merged', tags: ['release'] }),
  });
  setReview(root, { command });
  return root;
}

const TASK = 'bump the plugin version for the release';

describe('lessons preflight --rerank (built CLI)', () => {
  it('keeps only what the reviewer approves, shows why, and records only those in the receipt', () => {
    const root = repo(fakeReviewer('rerank'));
    const plain = JSON.parse(runCli(['preflight', TASK, '--json'], { cwd: root }).stdout) as { selected: { id: string }[] };
    expect(plain.selected.map((lesson) => lesson.id).sort()).toEqual(['case-manifest-version', 'case-release-tag']);
    const [first, second] = plain.selected.map((lesson) => lesson.id);

    const result = runCli(['preflight', TASK, '--rerank', '--json'], { cwd: root });
    expect(result.exitCode).toBe(0);
    const data = JSON.parse(result.stdout) as { selected: { id: string; reasons: string[] }[]; rerank: unknown };
    expect(data.selected.map((lesson) => lesson.id)).toEqual([first]);
    expect(data.selected[0]!.reasons[0]).toBe(`reviewer: Applies: ${first} is about this task.`);
    expect(data.rerank).toEqual({ status: 'applied', dropped: [{ id: second, applicability: 'Shares words with the task only.' }], promoted: [], problem: null });
    const receipt = JSON.parse(fs.readFileSync(path.join(root, '.lessons/preflight/last.json'), 'utf8')) as { selected: string[] };
    expect(receipt.selected).toEqual([first]);

    const text = runCli(['preflight', TASK, '--rerank'], { cwd: root }).stdout;
    expect(text).toContain(`rerank: the reviewer kept 1 of 2 lessons that applied\n  dropped ${second}: Shares words with the task only.\n`);
    expect(text).toContain(`why: reviewer: Applies: ${first} is about this task.`);
  });

  it('says so when the reviewer approves none', () => {
    const root = repo(fakeReviewer('rerank'));
    const result = runCli(['preflight', TASK, '--rerank'], { cwd: root, env: { FAKE_RERANK_KEEP: 'nothing-matches-this' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('The reviewer found none of the lessons found applicable to this task.');
  });

  it('sees the related tier too: a related lesson it approves is promoted to apply, one it turns down is no longer listed', () => {
    const root = repo(fakeReviewer('rerank'));
    // --limit 1 leaves the second lesson that would apply in the related tier.
    const plain = JSON.parse(runCli(['preflight', TASK, '--json', '--limit', '1'], { cwd: root }).stdout) as { selected: { id: string }[]; related: { id: string }[] };
    const related = plain.related.map((lesson) => lesson.id);
    expect(related.length).toBeGreaterThan(0);
    const promote = related[0]!;
    const result = runCli(['preflight', TASK, '--rerank', '--json', '--limit', '1'], { cwd: root, env: { FAKE_RERANK_KEEP: promote } });
    const data = JSON.parse(result.stdout) as { selected: { id: string; reasons: string[] }[]; related: { id: string }[]; rerank: { promoted: string[]; dropped: { id: string }[] } };
    expect(data.selected.map((lesson) => lesson.id)).toEqual([promote]);
    expect(data.selected[0]!.reasons[0]).toBe(`reviewer: Applies: ${promote} is about this task.`);
    expect(data.rerank.promoted).toEqual([promote]);
    expect(data.rerank.dropped.map((item) => item.id)).toEqual(plain.selected.map((lesson) => lesson.id));
    // Every related lesson was judged: the ones turned down are gone.
    expect(data.related).toEqual([]);
    const receipt = JSON.parse(fs.readFileSync(path.join(root, '.lessons/preflight/last.json'), 'utf8')) as { selected: string[]; related: string[] };
    expect(receipt).toMatchObject({ selected: [promote], related: [] });
    const text = runCli(['preflight', TASK, '--rerank', '--limit', '1'], { cwd: root, env: { FAKE_RERANK_KEEP: promote } }).stdout;
    expect(text).toContain(`promoted 1 related\n`);
    expect(text).toContain(`  promoted ${promote}\n`);
  });

  it(`judges lessons ranked below the related tier too (${REVIEW_POOL} deep), promotes at most related_max, and lists at most related_max`, () => {
    const titles = ['Release tag pushed before the version bump merged', 'Plugin manifest kept the old version', 'Changelog missed the version bump', 'Docs site showed the previous version'];
    const root = tempLessonsRepo(Object.assign({}, ...titles.map((title, i) => lessonFile({ id: `case-version-${i}`, title, tags: ['versioning'] }))));
    setReview(root, { command: fakeReviewer('rerank') });
    const file = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as { preflight: Record<string, unknown> };
    policy.preflight.related_max = 1;
    fs.writeFileSync(file, JSON.stringify(policy, null, 2));
    const task = 'version';
    const tiers = (args: string[], env: Record<string, string> = {}) => JSON.parse(runCli(['preflight', task, '--json', ...args], { cwd: root, env }).stdout) as { selected: { id: string }[]; related: { id: string }[]; rerank?: { status: string; promoted: string[] } };
    // One word applies nothing; the plain answer lists one related lesson of the four the word names.
    const plain = tiers([]);
    expect(plain.selected).toEqual([]);
    expect(plain.related).toHaveLength(1);
    // The reviewer is shown all four: it approves every one, the best-ranked is promoted, the next listed; or it approves one ranked past the listed one, which is promoted.
    const lowest = tiers(['--rerank'], { FAKE_RERANK_KEEP: 'case-version' });
    expect(lowest.rerank).toMatchObject({ status: 'applied' });
    expect(lowest.selected).toHaveLength(1);
    expect(lowest.related).toHaveLength(1);
    const deep = titles.map((_, i) => `case-version-${i}`).find((id) => id !== plain.related[0]!.id)!;
    const promoted = tiers(['--rerank'], { FAKE_RERANK_KEEP: deep });
    expect(promoted.selected.map((lesson) => lesson.id)).toEqual([deep]);
    expect(promoted.rerank!.promoted).toEqual([deep]);
    expect(promoted.related).toEqual([]);
    // A reviewer that fails leaves the plain answer, related_max deep.
    setReview(root, { command: fakeReviewer('crash') });
    const failed = tiers(['--rerank']);
    expect(failed.rerank).toMatchObject({ status: 'failed' });
    expect(failed.related.map((lesson) => lesson.id)).toEqual(plain.related.map((lesson) => lesson.id));
  });

  it('falls back to the plain ranking when the reviewer fails, and says so', () => {
    const root = repo(fakeReviewer('crash'));
    const plain = JSON.parse(runCli(['preflight', TASK, '--json'], { cwd: root }).stdout) as { selected: { id: string }[] };
    const result = runCli(['preflight', TASK, '--rerank', '--json'], { cwd: root });
    expect(result.exitCode).toBe(0);
    const data = JSON.parse(result.stdout) as { selected: { id: string }[]; rerank: { status: string; problem: { rule: string } } };
    expect(data.selected.map((lesson) => lesson.id)).toEqual(plain.selected.map((lesson) => lesson.id));
    expect(data.rerank).toMatchObject({ status: 'failed', problem: { rule: 'reviewer-failed' } });
    const text = runCli(['preflight', TASK, '--rerank'], { cwd: root }).stdout;
    expect(text).toContain('rerank: the reviewer failed, so this is the plain ranking: the reviewer exited with code 3: error: the model could not be reached');
  });

  it('an answer that breaks schemas/lesson-rerank.schema.json is a failure too', () => {
    const root = repo(fakeReviewer('good'));
    const data = JSON.parse(runCli(['preflight', TASK, '--rerank', '--json'], { cwd: root }).stdout) as { selected: unknown[]; rerank: { status: string; problem: { rule: string } } };
    expect(data.selected).toHaveLength(2);
    expect(data.rerank).toMatchObject({ status: 'failed', problem: { rule: 'reviewer-schema' } });
  });

  it('is not for hook mode, and the fast bundle does not carry the reviewer code', () => {
    const root = repo(fakeReviewer('rerank'));
    const result = runCli(['preflight', '--path', 'package.json', '--rerank'], { cwd: root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--rerank needs the task as text: it is not for hook mode');
    const bundle = fs.readFileSync(path.join(PACKAGE_ROOT, 'dist/fast/preflight.cjs'), 'utf8');
    expect(bundle).not.toContain('lesson-rerank');
    expect(bundle).not.toContain('askReviewer');
    // Nor the policy validation and ajv loader it needs.
    expect(bundle).not.toContain('// dist/src/policy/validate-policy.js');
    expect(bundle).not.toContain('// dist/src/schema/validate.js');
  });
});
