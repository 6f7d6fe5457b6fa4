import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { committedLessonsRepo, fakeToken, stageIndex, writeReceipt, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';

describe('lessons guard (built binary)', () => {
  it('exit 0 and a one-line verdict when nothing blocks', async () => {
    const root = await committedLessonsRepo();
    writeReceipt(root, [], new Date());
    const result = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root });
    expect(result).toEqual({ exitCode: 0, stdout: 'lessons guard (pre-commit): passed\n', stderr: '' });
  });

  it('exit 1 with file, line, gate, level and the fix when something blocks; --json prints the report', async () => {
    const root = await committedLessonsRepo();
    writeReceipt(root, [], new Date());
    writeFiles(root, lessonFile({ id: 'case-2026-10-10-leak' }, `## Fix\n\nslack ${fakeToken('slack')}\n\n## Prevention Checklist\n\n- [ ] x\n`));
    await stageIndex(root);
    const text = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root });
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/^lessons\/cases\/case-2026-10-10-leak\.md:14: block \[secrets\] looks like a slack-token credential \(xoxb… \(28 characters\)\): remove it/);
    // The token is in the lesson and in the index built from it: two findings.
    expect(text.stdout).toContain('lessons/index.json:');
    expect(text.stdout.endsWith('lessons guard (pre-commit): blocked by 2 findings\nfix what each finding says, or bypass the guard knowingly with `git commit --no-verify`\n')).toBe(true);
    const json = runLessons(['guard', '--stage', 'pre-commit', '--json', '-C', root]);
    expect(json.exitCode).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ version: 1, stage: 'pre-commit', blocked: true, head: 'index', counts: { block: 2, warn: 0 } });
    expect(report.findings[0]).toMatchObject({ gate: 'secrets', level: 'block', rule: 'slack-token', file: 'lessons/cases/case-2026-10-10-leak.md', line: 14 });
  });

  it('prints GitHub annotations and appends a job summary under GitHub Actions', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    writeFiles(root, lessonFile({ id: 'case-2026-10-10-new' }));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--no-verify', '-m', 'add a case, forget the index', '-m', 'Lessons-Preflight: none');
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const summary = path.join(tempDir(), 'summary.md');
    fs.writeFileSync(summary, '# earlier step\n');
    const result = runLessons(['guard', '--stage', 'ci', '--base', base], { cwd: root, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(result.exitCode).toBe(1);
    const message = 'lessons/index.json is stale (not in the index: case-2026-10-10-new): run `lessons index` and commit lessons/index.json';
    expect(result.stdout).toBe(
      `::error file=lessons/index.json,title=lessons guard%3A index-fresh::${message}\n` +
        `lessons/index.json: block [index-fresh] ${message}\n` +
        'lessons guard (ci): blocked by 1 finding\nfix what each finding says\n',
    );
    expect(fs.readFileSync(summary, 'utf8')).toBe(
      '# earlier step\n' +
        '## lessons guard (ci): ❌ blocked by 1 finding\n\n' +
        `Checked ${head.slice(0, 12)} against ${base.slice(0, 12)} (${base}).\n\n` +
        '| gate | level | findings |\n| --- | --- | --- |\n' +
        '| schema | block | 0 |\n| index-fresh | block | 1 |\n| preflight-evidence | warn | 0 |\n| incident-lesson | block | 0 |\n' +
        '| promotion | block | 0 |\n| secrets | block | 0 |\n| quality | warn | 0 |\n| retrieval | block | 0 |\n| policy | block | 0 |\n\n' +
        '| level | gate | where | message |\n| --- | --- | --- | --- |\n' +
        `| block | index-fresh | lessons/index.json | ${message} |\n\n` +
        // The section the PR comment carries: no lesson applies to this change, said in one line.
        '<!-- lessons:pr-section -->\n## Lessons for this change\n\n<!-- lessons:pr-section:none -->\n' +
        "No lesson's triggers match this change's paths or commands, and preflight selects none for its commit subjects.\n\n",
    );
  });

  it('usage errors exit 2 with the usage', () => {
    const missing = runLessons(['guard']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('lessons: say which stage to check with --stage');
    const unknown = runLessons(['guard', '--stage', 'release']);
    expect(unknown).toMatchObject({ exitCode: 2, stderr: "lessons: unknown stage 'release'\nthe stages are pre-commit, pre-push, ci, final\n" });
    expect(runLessons(['guard', '--stage', 'ci', '--bogus']).exitCode).toBe(2);
    expect(runLessons(['guard', '--stage', 'pre-commit', '--head', 'HEAD'])).toMatchObject({
      exitCode: 2,
      stderr: 'lessons: --head applies to pre-push and ci; pre-commit checks the staged tree\n',
    });
  });

  it('an invalid policy exits 2 naming the field', async () => {
    const root = await committedLessonsRepo();
    const file = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(file, 'utf8'));
    policy.gates.secrets['pre-commit'] = 'sometimes';
    fs.writeFileSync(file, JSON.stringify(policy));
    const result = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('gates.secrets.pre-commit: must be one of: "off", "warn", "block"');
    policy.gates.secrets['pre-commit'] = 'block';
    policy.secrets.rules = [{ name: 'broken', pattern: '(' }];
    fs.writeFileSync(file, JSON.stringify(policy));
    const regex = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root });
    expect(regex.exitCode).toBe(2);
    expect(regex.stderr).toContain('secrets.rules[0].pattern: is not a valid regular expression');
  });
});
