import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_ID, commitAll, committedLessonsRepo, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, tempDir } from '../helpers/repo.js';

const PIN = 'pattern-pin-ci-actions';
const TASK = 'pin the third-party ci actions of the workflow to a commit';
const TOKENS = ['case-2026-05-01-token-in-log', 'case-2026-06-01-token-in-artifact'];

const PIN_BODY = `## Situation

A CI action's tag was moved to a commit that ran foreign code.

## Prevention Checklist

- [ ] Every third-party action is pinned to a full commit hash.
`;

/** The platform team's lessons repository, pushed to a local bare repository: its remote. */
async function platformRemote(): Promise<{ work: string; bare: string }> {
  const cases = ['case-2026-02-01-action-tag-moved', 'case-2026-03-01-action-tag-moved-again'];
  const work = await committedLessonsRepo({
    ...lessonFile({ id: cases[0]!, title: 'A moved CI action tag ran foreign code', tags: ['ci'] }),
    ...lessonFile({ id: cases[1]!, title: 'A moved CI action tag ran foreign code again', tags: ['ci'] }),
    ...lessonFile(
      { id: PIN, level: 'pattern', title: 'Pin third-party CI actions to a commit', tags: ['ci', 'security'], source_case_ids: cases, triggers: { tools: ['Edit', 'Write'], paths: ['.github/workflows/**'] } },
      PIN_BODY,
    ),
  });
  const bare = path.join(tempDir(), 'platform.git');
  git(work, 'init', '-q', '--bare', '-b', 'main', bare);
  git(work, 'push', '-q', bare, 'main');
  return { work, bare };
}

function json<T>(text: string): T {
  return JSON.parse(text) as T;
}

function preToolUse(root: string, file: string): string {
  return JSON.stringify({ session_id: 'fed', transcript_path: path.join(root, 't.jsonl'), cwd: root, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'toolu_1', tool_input: { file_path: path.join(root, file), old_string: 'a', new_string: 'b' } });
}

describe('a platform repository and a service repository, end to end (built binary, real git)', { timeout: 240_000 }, () => {
  it('sources update, preflight, a PreToolUse hook, lint, promote --to-source and the ci guard', async () => {
    const platform = await platformRemote();
    const service = await committedLessonsRepo({
      ...lessonFile({ id: TOKENS[0]!, title: 'A token printed in a CI log', tags: ['ci', 'secrets'] }),
      ...lessonFile({ id: TOKENS[1]!, title: 'A token inside a build artifact', tags: ['ci', 'secrets'] }),
    });
    const policyFile = path.join(service, 'policy/workflow-policy.json');
    const policy = json<{ sources: unknown[] }>(fs.readFileSync(policyFile, 'utf8'));
    policy.sources = [{ name: 'platform', url: platform.bare, ref: 'main' }];
    fs.writeFileSync(policyFile, `${JSON.stringify(policy, null, 2)}\n`);

    // Fetch and lock; the team commits the lock file.
    const update = runLessons(['sources', 'update'], { cwd: service });
    expect(update.stderr).toBe('');
    expect(update.stdout).toMatch(/^platform: updated at [0-9a-f]{12}\nwrote lessons\/sources\.lock\.json: commit it\n$/);
    expect(runLessons(['index'], { cwd: service }).exitCode).toBe(0);
    // The team's retrieval tests name the platform's pattern as preflight does.
    fs.writeFileSync(path.join(service, 'lessons/evals.json'), `${JSON.stringify({ version: 1, cases: [{ task: TASK, must: [`platform:${PIN}`] }] }, null, 2)}\n`);
    const evals = runLessons(['eval'], { cwd: service });
    expect(evals.stdout).toContain('recall 1: 1 of 1 must lessons selected or listed as related');
    expect(evals.exitCode).toBe(0);
    commitAll(service, 'take the platform lessons', 'Lessons-Preflight: none');
    expect(runLessons(['sources', 'status'], { cwd: service }).exitCode).toBe(0);

    // Preflight: the platform's pattern, named with its source, beside the local lessons.
    const preflight = runLessons(['preflight', TASK, '--json'], { cwd: service });
    expect(preflight.stderr).toBe('');
    const selected = json<{ selected: { id: string; path: string }[] }>(preflight.stdout).selected;
    expect(selected[0]).toMatchObject({ id: `platform:${PIN}`, path: `.lessons/sources/platform/lessons/patterns/${PIN}.md` });

    // Claude Code's PreToolUse hook on a workflow file: the platform's path trigger matches.
    const hook = runLessons(['hook', 'claude', 'PreToolUse'], { cwd: service, input: preToolUse(service, '.github/workflows/ci.yml') });
    expect(hook.exitCode).toBe(0);
    expect(hook.stderr).toBe('');
    const context = json<{ hookSpecificOutput: { hookEventName: string; additionalContext: string } }>(hook.stdout).hookSpecificOutput;
    expect(context.hookEventName).toBe('PreToolUse');
    expect(context.additionalContext).toContain(`platform:${PIN}`);
    expect(context.additionalContext).toContain('Every third-party action is pinned to a full commit hash.');

    // Lint, with the sources loaded: both repositories have the example case, and the local one wins.
    const lint = runLessons(['lint', '--json'], { cwd: service });
    expect(lint.exitCode).toBe(0);
    expect(json<{ findings: { severity: string; rule: string; file: string }[] }>(lint.stdout).findings.map((finding) => `${finding.severity} ${finding.rule} ${finding.file}`)).toEqual([
      `warning source-shadowed lessons/cases/${CASE_ID}.md`,
    ]);

    // Contributing back: a pattern from the two local cases, on a branch of the platform's checkout.
    const promote = runLessons(['promote', ...TOKENS, '--to', 'pattern', '--title', 'Keep tokens out of CI output', '--id', 'pattern-tokens-out-of-ci', '--to-source', 'platform', '--json'], { cwd: service });
    expect(promote.stderr).toBe('');
    expect(promote.exitCode).toBe(0);
    const promoted = json<{ branch: string; path: string; push: string[] }>(promote.stdout);
    expect(promoted.push).toEqual(['git', '-C', '.lessons/sources/platform', 'push', 'origin', promoted.branch]);
    // lessons never pushes; the team does, with the command it printed.
    expect(git(platform.bare, 'for-each-ref', '--format=%(refname)').trim()).toBe('refs/heads/main');
    git(service, ...promoted.push.slice(1));
    // The platform's own lint on the pushed branch: no error.
    git(platform.work, 'fetch', '-q', platform.bare, promoted.branch);
    git(platform.work, 'checkout', '-q', 'FETCH_HEAD');
    expect(fs.readFileSync(path.join(platform.work, promoted.path), 'utf8')).toContain(`- \`${TOKENS[0]}\` of ${path.basename(service)}: A token printed in a CI log`);
    const platformLint = runLessons(['lint', '--json'], { cwd: platform.work });
    expect(platformLint.exitCode).toBe(0);
    expect(json<{ findings: { severity: string }[] }>(platformLint.stdout).findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    // The service's own tree is untouched by the promotion.
    expect(git(service, 'status', '--porcelain')).toBe('');

    // CI on a fresh clone of the service: the locked commits, then the guard.
    const ci = tempDir();
    git(ci, 'clone', '-q', service, 'repo');
    const clone = path.join(ci, 'repo');
    // Before the locked sources are fetched, the evals' source lesson is unknown: the retrieval gate blocks and says why.
    const unfetched = runLessons(['guard', '--stage', 'ci', '--json'], { cwd: clone });
    expect(unfetched.exitCode).toBe(1);
    expect(json<{ findings: { gate: string; message: string }[] }>(unfetched.stdout).findings.find((finding) => finding.gate === 'retrieval')?.message).toContain(`platform:${PIN}`);
    const locked = runLessons(['sources', 'update', '--locked'], { cwd: clone });
    expect(locked).toMatchObject({ exitCode: 0, stderr: '' });
    expect(locked.stdout).toMatch(/^platform: checked-out at [0-9a-f]{12}\n$/);
    const guard = runLessons(['guard', '--stage', 'ci', '--json'], { cwd: clone });
    expect(json<{ findings: { level: string }[] }>(guard.stdout).findings.filter((finding) => finding.level === 'block')).toEqual([]);
    expect(guard.exitCode).toBe(0);
    expect(runLessons(['preflight', TASK, '--json'], { cwd: clone }).stdout).toContain(`"id": "platform:${PIN}"`);
  });
});
