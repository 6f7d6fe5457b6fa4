/**
 * Regressions of issue #38 "Hardening II": inputs that crashed, hung, wrote outside the
 * repository or went unanswered. Each case failed on the code before the fix.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { git, initGitRepo, runCli as run, tempLessonsRepo } from '../helpers/repo.js';

const runCli = (args: string[], options: Parameters<typeof run>[1] = {}) => run(args, { timeoutMs: 30_000, ...options });

/** A lessons repository with two lessons, committed. */
function committedRepo(): string {
  const root = initGitRepo(
    tempLessonsRepo({
      ...lessonFile({ id: 'case-2026-01-01-release-bump', title: 'Release bump missed a manifest', tags: ['release', 'version'] }),
      ...lessonFile({ id: 'case-2026-01-02-deploy-keystore', title: 'Deploy keystore lived on one laptop', tags: ['deploy', 'signing'] }),
    }),
  );
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'lessons');
  return root;
}

const noStack = (text: string) => expect(text).not.toMatch(/internal error|\n\s+at /);

describe('a giant word is no word: every scan stays linear (#38 point 3)', () => {
  it('ask with a 60,000- and a 120,000-character word answers within seconds', () => {
    const root = committedRepo();
    for (const length of [60_000, 120_000]) {
      const started = Date.now();
      const result = runCli(['ask', `deploy ${'a'.repeat(length)}`], { cwd: root });
      noStack(result.stderr);
      expect(result.exitCode).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  }, 60_000);

  it('a 40,000-character word in a new lesson: index, preflight and the hook still work', () => {
    const root = committedRepo();
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    expect(runCli(['preflight', 'deploy keystore'], { cwd: root }).exitCode).toBe(0);
    const giant = Array.from({ length: 40_000 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join('');
    fs.writeFileSync(
      path.join(root, 'lessons/cases/case-2026-01-03-giant-word.md'),
      lessonText({ id: 'case-2026-01-03-giant-word', title: 'Deploy keystore rotation', tags: ['deploy'] }, `## Situation\n\n${giant} deploy keystore\n\n## Mistake\n\nx\n\n## Root Cause\n\nx\n\n## Fix\n\nx\n\n## Prevention Checklist\n\n- [ ] Rotate the deploy keystore.\n`),
    );
    const index = runCli(['index'], { cwd: root });
    noStack(index.stderr);
    expect(index.exitCode).toBe(0);
    const preflight = runCli(['preflight', '--json', 'rotate the deploy keystore'], { cwd: root });
    noStack(preflight.stderr);
    expect(preflight.exitCode).toBe(0);
    expect(preflight.stdout).toContain('case-2026-01-03-giant-word');
    const hook = runCli(['hook', 'claude'], { cwd: root, input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'rotate the deploy keystore', cwd: root }) });
    expect(hook.exitCode).toBe(0);
    expect(hook.stdout).toContain('case-2026-01-03-giant-word');
  }, 60_000);
});
