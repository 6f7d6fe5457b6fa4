import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeIndex } from '../../src/store/index-write.js';
import { commitAll, committedLessonsRepo, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { RELEASE_AND_FORCE_PUSH } from '../helpers/preflight.js';
import { PACKAGE_ROOT, git, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const RELEASE = 'case-2026-01-01-version-bump-missed-manifest';
const FORCE_PUSH = 'case-2026-01-02-force-push-rewrote-main';
const MIGRATION = 'case-2026-01-03-column-dropped-before-deploy';

/** A body that shares no word with the tasks below, so only title, tags and triggers make a lesson findable. */
const NEUTRAL_BODY = `## Situation

It happened on a Tuesday.

## Mistake

Nobody looked.

## Root Cause

Nobody was asked to look.

## Fix

Somebody looked.

## Prevention Checklist

- [ ] Look first.
`;

const LESSONS = {
  ...RELEASE_AND_FORCE_PUSH,
  ...lessonFile(
    { id: MIGRATION, title: 'Column dropped before the code deploy', tags: ['migrations', 'postgres'], triggers: { tools: ['Edit'], paths: ['migrations/**'] } },
    NEUTRAL_BODY,
  ),
};

/** Two task cases, a no-match case and a hook-mode case, all passing on LESSONS. */
const PASSING = {
  version: 1,
  cases: [
    { task: 'bump the plugin version for the release', must: [RELEASE], must_not: [FORCE_PUSH] },
    { task: 'drop the old column in a postgres migration', must: [MIGRATION], note: 'the deploy-order incident' },
    { task: 'change the colour of the login button', no_match: true },
    { name: 'force push', tool: 'Bash', command: 'git push --force origin main', must: [FORCE_PUSH] },
  ],
};

async function repoWithEvals(evals: unknown, files: Record<string, string> = {}): Promise<string> {
  const root = tempLessonsRepo({ ...LESSONS, 'lessons/evals.json': typeof evals === 'string' ? evals : JSON.stringify(evals, null, 2), ...files });
  await writeIndex({ cwd: root });
  return root;
}

function setPolicy(root: string, change: (policy: Record<string, unknown>) => void): void {
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(policy);
  fs.writeFileSync(file, JSON.stringify(policy));
}

describe('lessons eval', () => {
  it('passes (exit 0) when every must lesson is selected and nothing it must not, and says so', async () => {
    const root = await repoWithEvals(PASSING);
    const result = runLessons(['eval'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        'ok   bump the plugin version for the release',
        'ok   drop the old column in a postgres migration',
        'ok   change the colour of the login button',
        'ok   [hook] force push',
        '',
        'lessons/evals.json: 4 of 4 cases passed',
        'recall 1: 3 of 3 must lessons selected or listed as related (task mode 2/2, hook mode 1/1); policy minimum 1',
        'applied 1: 3 of 3 must lessons shown in full',
        'false-positive rate 0: 0 of 2 must-not and no-match cases selected what they must not; policy maximum 0',
        'no-match cases: 0 related entries each on average, 48 printed tokens (median)',
        'passed',
        '',
      ].join('\n'),
    );
  });

  it('selects exactly what `lessons preflight --json` selects for the same inputs', async () => {
    const root = await repoWithEvals(PASSING);
    const evalResult = JSON.parse(runLessons(['eval', '--json'], { cwd: root }).stdout) as { cases: { selected: { id: string }[] }[] };
    const preflightIds = (args: string[]): string[] =>
      (JSON.parse(runLessons(['preflight', ...args, '--json'], { cwd: root }).stdout) as { selected: { id: string }[] }).selected.map((lesson) => lesson.id);
    expect(evalResult.cases.map((c) => c.selected.map((lesson) => lesson.id))).toEqual([
      preflightIds(['bump the plugin version for the release']),
      preflightIds(['drop the old column in a postgres migration']),
      preflightIds(['change the colour of the login button']),
      preflightIds(['--tool', 'Bash', '--command', 'git push --force origin main']),
    ]);
    expect(evalResult.cases[0]!.selected.map((lesson) => lesson.id)).toContain(RELEASE);
  });

  it('fails (exit 1) below the policy minimum, naming each miss, where it ranked, and what was selected instead', async () => {
    const root = await repoWithEvals({
      version: 1,
      cases: [
        { task: 'bump the plugin version for the release', must: [RELEASE, MIGRATION], note: 'both lessons, for the test' },
        { name: 'editing a migration', tool: 'Edit', paths: ['migrations/001.sql'], must: [MIGRATION, RELEASE] },
      ],
    });
    const result = runLessons(['eval'], { cwd: root });
    expect(result.exitCode).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['FAIL bump the plugin version for the release', '  note: both lessons, for the test']);
    expect(lines).toContain(`  missed ${MIGRATION}: not ranked: no word of the task reached it`);
    expect(lines).toContain('  selected instead:');
    expect(lines.some((line) => line.startsWith(`    ${RELEASE} (score `))).toBe(true);
    expect(lines.some((line) => /^ {6}matched .*"bump".* in title/.test(line))).toBe(true);
    expect(lines).toContain('FAIL [hook] editing a migration');
    expect(lines).toContain(`  missed ${RELEASE}: not ranked: none of its triggers matched`);
    expect(lines).toContain('recall 0.5: 2 of 4 must lessons selected or listed as related (task mode 1/2, hook mode 1/2); policy minimum 1');
    expect(lines).toContain("failed: recall 0.5 (2 of 4 must lessons selected or listed as related) is below the policy's eval.min_recall 1");

    setPolicy(root, (policy) => (policy.eval = { min_recall: 0.5, max_false_positive_rate: 0 }));
    expect(runLessons(['eval'], { cwd: root }).exitCode).toBe(0);
  });

  it('counts a must-not lesson selected, and anything selected for a no-match case, as false positives', async () => {
    const root = await repoWithEvals({
      version: 1,
      cases: [
        { task: 'bump the plugin version for the release', must_not: [RELEASE] },
        { task: 'release the plugin', no_match: true },
        { task: 'change the colour of the login button', no_match: true },
      ],
    });
    const result = runLessons(['eval', '--json'], { cwd: root });
    expect(result.exitCode).toBe(1);
    const data = JSON.parse(result.stdout) as { false_positive_rate: number; negatives: unknown; cases: { passed: boolean; false_positives: { id: string }[] }[]; failures: string[] };
    expect(data.negatives).toEqual({ cases: 3, false_positive: 2 });
    expect(data.false_positive_rate).toBe(0.6667);
    expect(data.cases.map((c) => c.passed)).toEqual([false, false, true]);
    expect(data.cases[0]!.false_positives.map((lesson) => lesson.id)).toEqual([RELEASE]);
    expect(data.cases[1]!.false_positives.map((lesson) => lesson.id)).toContain(RELEASE);
    expect(data.failures).toEqual([
      "false-positive rate 0.6667 (2 of 3 must-not and no-match cases) is above the policy's eval.max_false_positive_rate 0",
    ]);
  });

  it('--json prints the structured result: totals, thresholds and every case with its selection and misses', async () => {
    const root = await repoWithEvals({ version: 1, cases: [{ task: 'bump the plugin version for the release', project: 'web', must: [RELEASE, MIGRATION] }] });
    const result = runLessons(['eval', '--json'], { cwd: root });
    expect(result.exitCode).toBe(1);
    const data = JSON.parse(result.stdout) as Record<string, unknown> & { cases: Record<string, unknown>[] };
    expect(Object.keys(data)).toEqual(['file', 'passed', 'thresholds', 'recall', 'applied', 'related_on_no_match', 'tokens_on_no_match', 'false_positive_rate', 'must', 'negatives', 'modes', 'cases', 'failures', 'index_digest']);
    expect(data).toMatchObject({
      file: 'lessons/evals.json',
      passed: false,
      thresholds: { min_recall: 1, max_false_positive_rate: 0 },
      recall: 0.5,
      false_positive_rate: null,
      must: { expected: 2, selected: 1, recall: 0.5 },
      negatives: { cases: 0, false_positive: 0 },
      modes: { task: { expected: 2, selected: 1, recall: 0.5 }, hook: { expected: 0, selected: 0, recall: null } },
    });
    const [only] = data.cases;
    expect(Object.keys(only!)).toEqual(['name', 'mode', 'task', 'paths', 'tool', 'command', 'project', 'passed', 'must', 'must_not', 'no_match', 'note', 'selected', 'related', 'tokens', 'misses', 'false_positives']);
    expect(only).toMatchObject({ name: 'bump the plugin version for the release', mode: 'task', project: 'web', passed: false });
    expect(only!.misses).toEqual([{ id: MIGRATION, rank: null, ranked: expect.any(Number), score: null, dropped: 'not-ranked', reasons: [] }]);
    expect((only!.selected as { id: string; score: number; reasons: string[] }[])[0]).toMatchObject({ id: RELEASE, score: expect.any(Number), reasons: expect.any(Array) });
  });

  it('says where a lesson below the relevance floor ranked', async () => {
    // "somebody" reaches the migration lesson's story only: one word a lesson merely mentions is ranked, but not enough to be listed even as related.
    const root = await repoWithEvals({ version: 1, cases: [{ task: 'export the signups to a spreadsheet for somebody', must: [MIGRATION] }] });
    const data = JSON.parse(runLessons(['eval', '--json'], { cwd: root }).stdout) as { cases: { selected: unknown[]; misses: { rank: number | null; dropped: string }[] }[] };
    expect(data.cases[0]!.misses).toEqual([expect.objectContaining({ rank: 1, dropped: 'floor' })]);
    expect(data.cases[0]!.selected).toEqual([]);
  });

  it('runs another file when one is named, relative to the current directory', async () => {
    const root = await repoWithEvals(PASSING, { 'qa/release-evals.json': JSON.stringify({ version: 1, cases: [{ task: 'bump the plugin version for the release', must: [MIGRATION] }] }) });
    const result = runLessons(['eval', 'release-evals.json'], { cwd: path.join(root, 'qa') });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('qa/release-evals.json: 0 of 1 cases passed');
  });

  it('a malformed evals file is exit 2, naming each field and what to do, and no stack trace', async () => {
    const root = await repoWithEvals({
      version: 1,
      cases: [{ task: 'bump the version', must: ['Not An Id'] }, { task: 'release it' }, { must: [RELEASE] }, { task: 'x', no_match: true, must: [RELEASE] }, { task: 'y', colour: 'red', no_match: true }],
    });
    const result = runLessons(['eval'], { cwd: root });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('lessons: lessons/evals.json is invalid:\n');
    expect(result.stderr).toContain("  cases[0].must[0]: must be a kebab-case lesson id (like `case-2026-05-12-missed-manifest`), or a source's as `<source>:<id>`");
    expect(result.stderr).toContain('  cases[4].colour: is not a known field');
    expect(result.stderr).toContain('fix the fields named above (schema: schemas/evals.schema.json)');
    expect(result.stderr).not.toMatch(/\n\s+at /);

    writeFiles(root, { 'lessons/evals.json': JSON.stringify({ version: 1, cases: [{ task: 'release it' }, { must: [RELEASE] }, { task: 'x', no_match: true, must: [RELEASE] }, { task: 'x', must: [RELEASE], must_not: [RELEASE] }] }) });
    const semantic = runLessons(['eval'], { cwd: root });
    expect(semantic.exitCode).toBe(2);
    expect(semantic.stderr).toBe(
      [
        'lessons: lessons/evals.json is invalid:',
        '  cases[0]: say what preflight must select (must), must not select (must_not), or that it selects nothing (no_match: true)',
        '  cases[1]: give a task, or a tool, paths or command for hook mode',
        '  cases[2]: no_match: true contradicts must: keep one of them',
        `  cases[3]: ${RELEASE} is in both must and must_not: keep it in one`,
        '  cases[3]: its name "x" is also the name of cases[2]: give one of them a distinct name',
        'fix the fields named above (schema: schemas/evals.schema.json)',
        '',
      ].join('\n'),
    );

    writeFiles(root, { 'lessons/evals.json': '{"version": 1, "cases": [' });
    const broken = runLessons(['eval'], { cwd: root });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/^lessons: lessons\/evals\.json is not valid JSON: .+; fix the file \(schema: schemas\/evals\.schema\.json\)\n$/);
  });

  it('an id that is no lesson preflight can select is exit 2 naming the id and where it is', async () => {
    const root = await repoWithEvals({ version: 1, cases: [{ task: 'bump the version', must: [RELEASE, 'case-2099-01-01-no-such-lesson'], must_not: ['pattern-gone'] }] });
    const result = runLessons(['eval'], { cwd: root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      [
        'lessons: lessons/evals.json names unknown lessons:',
        '  cases[0].must[1]: no lesson "case-2099-01-01-no-such-lesson" that preflight can select (no such id, or it is retired)',
        '  cases[0].must_not[0]: no lesson "pattern-gone" that preflight can select (no such id, or it is retired)',
        'fix the ids (`lessons list` shows them) or remove them',
        '',
      ].join('\n'),
    );
  });

  it('without lessons/evals.json, or with a named file that does not exist, is exit 2 saying what to do', async () => {
    const root = tempLessonsRepo(LESSONS);
    await writeIndex({ cwd: root });
    const missing = runLessons(['eval'], { cwd: root });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe('lessons: there is no lessons/evals.json: write one (see "Writing evals" in the README), or name a file: lessons eval <file>\n');
    const named = runLessons(['eval', 'nope.json'], { cwd: root });
    expect(named.exitCode).toBe(2);
    expect(named.stderr).toBe('lessons: cannot read nope.json: no such file; check the path\n');
  });
});

describe('the guard retrieval gate', () => {
  it('in ci, a change that renames a lesson title and tags so its eval no longer selects it blocks (exit 1)', async () => {
    const root = await committedLessonsRepo({ ...LESSONS, 'lessons/evals.json': JSON.stringify(PASSING) });
    const base = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'checkout', '-q', '-b', 'topic');

    // A change that leaves retrieval alone passes the gate.
    writeFiles(root, { 'README.md': 'hello\n' });
    commitAll(root, 'docs: readme', 'Lessons-Preflight: none');
    const clean = runLessons(['guard', '--stage', 'ci', '--base', base, '--json'], { cwd: root });
    expect(clean.exitCode).toBe(0);
    const cleanReport = JSON.parse(clean.stdout) as { levels: Record<string, string>; findings: { gate: string }[] };
    expect(cleanReport.levels.retrieval).toBe('block');
    expect(cleanReport.findings.filter((finding) => finding.gate === 'retrieval')).toEqual([]);

    // The migration lesson is renamed: its title and tags no longer say what it is about.
    writeFiles(root, lessonFile({ id: MIGRATION, title: 'The Tuesday incident', tags: ['history'], triggers: { tools: ['Edit'], paths: ['migrations/**'] } }, NEUTRAL_BODY));
    await writeIndex({ cwd: root });
    commitAll(root, 'docs: retitle a lesson', 'Lessons-Preflight: none');
    const result = runLessons(['guard', '--stage', 'ci', '--base', base, '--json'], { cwd: root });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout) as { findings: { gate: string; level: string; rule: string; file: string; message: string }[] };
    const retrieval = report.findings.filter((finding) => finding.gate === 'retrieval');
    expect(retrieval).toEqual([
      {
        gate: 'retrieval',
        level: 'warn',
        rule: 'retrieval-miss',
        severity: 'warning',
        file: 'lessons/evals.json',
        message: `"drop the old column in a postgres migration": preflight does not select ${MIGRATION} (not ranked: no word of the task reached it)`,
      },
      {
        gate: 'retrieval',
        level: 'block',
        rule: 'retrieval-threshold',
        severity: 'error',
        file: 'lessons/evals.json',
        message: "recall 0.6667 (2 of 3 must lessons selected or listed as related) is below the policy's eval.min_recall 1: run `lessons eval` for the reasons",
      },
    ]);
  });

  it('is off at pre-commit by default, and a broken evals file in ci is a blocking finding, not a crash', async () => {
    const root = await committedLessonsRepo({ ...LESSONS, 'lessons/evals.json': JSON.stringify(PASSING) });
    const base = git(root, 'rev-parse', 'HEAD').trim();
    writeFiles(root, { 'lessons/evals.json': JSON.stringify({ version: 1, cases: [{ task: 'bump', must: ['case-2099-01-01-gone'] }] }) });
    git(root, 'add', '-A');
    const preCommit = JSON.parse(runLessons(['guard', '--stage', 'pre-commit', '--json'], { cwd: root }).stdout) as { levels: Record<string, string>; findings: { gate: string }[] };
    expect(preCommit.levels.retrieval).toBe('off');
    expect(preCommit.findings.filter((finding) => finding.gate === 'retrieval')).toEqual([]);

    commitAll(root, 'test: an eval for a lesson that does not exist', 'Lessons-Preflight: none');
    const result = runLessons(['guard', '--stage', 'ci', '--base', base, '--json'], { cwd: root });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout) as { findings: { gate: string; rule: string; level: string; message: string }[] };
    expect(report.findings.filter((finding) => finding.gate === 'retrieval')).toEqual([
      expect.objectContaining({ rule: 'retrieval-evals', level: 'block', message: expect.stringContaining('cases[0].must[0]: no lesson "case-2099-01-01-gone"') }),
    ]);
  });
});

describe('lessons eval reports both tiers', () => {
  it('counts must lessons shown in either tier as found, false positives in the apply tier only, and related entries and printed tokens on no-match cases', async () => {
    const root = await repoWithEvals(PASSING);
    const result = runLessons(['eval', '--json'], { cwd: root });
    expect(result.exitCode).toBe(0);
    const data = JSON.parse(result.stdout) as { recall: number; applied: { expected: number; selected: number }; related_on_no_match: number; tokens_on_no_match: number; cases: { related: unknown[]; tokens: number }[] };
    expect(data.recall).toBe(1);
    expect(data.applied).toEqual({ expected: 3, selected: 3, recall: 1 });
    expect(data.related_on_no_match).toBe(data.cases[2]!.related.length);
    expect(data.tokens_on_no_match).toBe(data.cases[2]!.tokens);
    expect(data.tokens_on_no_match).toBeGreaterThan(0);
    const text = runLessons(['eval'], { cwd: root }).stdout;
    expect(text).toContain('recall 1: 3 of 3 must lessons selected or listed as related');
    expect(text).toContain('applied 1: 3 of 3 must lessons shown in full');
    expect(text).toMatch(/no-match cases: \d+(\.\d+)? related entries each on average, \d+ printed tokens \(median\)/);
  });

  it('--rerank runs the cases through the policy reviewer: a team measures its own model', async () => {
    const root = await repoWithEvals(PASSING);
    const policyFile = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8')) as { review: Record<string, unknown> };
    policy.review = { ...policy.review, command: [process.execPath, path.join(PACKAGE_ROOT, 'test/fixtures/fake-reviewer.mjs'), 'rerank'] };
    fs.writeFileSync(policyFile, JSON.stringify(policy, null, 2));
    // The fake reviewer keeps only lessons whose id holds FAKE_RERANK_KEEP: here none of the must lessons.
    const result = runLessons(['eval', '--rerank'], { cwd: root, env: { FAKE_RERANK_KEEP: 'nothing-matches-this' } });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/rerank: the reviewer judged 3 task cases\n/);
    expect(result.stdout).toContain('FAIL bump the plugin version for the release');
    // The hook case has no reviewer: it still passes.
    expect(result.stdout).toContain('ok   [hook] force push');
    const kept = runLessons(['eval', '--rerank', '--json'], { cwd: root, env: { FAKE_RERANK_KEEP: 'case-2026-01-0' } });
    const data = JSON.parse(kept.stdout) as { rerank: { cases: number; failed: number }; cases: { selected: { reasons: string[] }[] }[] };
    expect(data.rerank).toEqual({ cases: 3, failed: 0 });
    expect(data.cases[0]!.selected[0]!.reasons[0]).toMatch(/^reviewer: Applies: /);
  });
});
