import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const PIN = 'pattern-pin-ci-actions';
const MOVED = 'case-2026-02-01-action-tag-moved';
const TASK = 'pin the third-party ci actions of the workflow to a commit';

/** A platform repository whose lessons a service repository takes as the source `platform`, through a local bare remote. */
function platformRemote(): string {
  const work = initGitRepo();
  writeFiles(work, {
    ...lessonFile({ id: PIN, level: 'pattern', title: 'Pin third-party CI actions to a commit', tags: ['ci', 'security'], source_case_ids: [MOVED, 'case-2026-03-01-action-tag-moved-again'] }),
    ...lessonFile({ id: MOVED, title: 'A moved CI action tag ran foreign code', tags: ['ci'] }),
    ...lessonFile({ id: 'case-2026-03-01-action-tag-moved-again', title: 'A moved CI action tag again', tags: ['ci'] }),
    ...lessonFile({ id: 'pattern-pin-ci-actions-by-tag', level: 'pattern', status: 'retired', retired_reason: 'tags move', title: 'Pin third-party CI actions to a tag', tags: ['ci'] }),
  });
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '--no-verify', '-m', 'platform lessons');
  const bare = path.join(tempDir(), 'platform.git');
  git(work, 'init', '-q', '--bare', '-b', 'main', bare);
  git(work, 'push', '-q', bare, 'HEAD:main');
  return bare;
}

interface Selected {
  id: string;
  path: string;
}

describe('selection across sources', { timeout: 120_000 }, () => {
  it('preflight ranks local and source lessons together, with provenance; retired and shadowed source lessons are never selected', () => {
    const service = tempLessonsRepo(lessonFile({ id: MOVED, title: 'A moved CI action tag ran foreign code here too', tags: ['ci'] }));
    const policyFile = path.join(service, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    policy.sources = [{ name: 'platform', url: platformRemote(), ref: 'main' }];
    fs.writeFileSync(policyFile, `${JSON.stringify(policy, null, 2)}\n`);
    expect(runLessons(['index'], { cwd: service }).exitCode).toBe(0);

    // Before the sources are fetched: the local lessons, and a warning saying what to run.
    const before = runLessons(['preflight', TASK, '--json'], { cwd: service });
    expect(before.exitCode).toBe(0);
    expect(before.stderr).toContain('lessons sources update');

    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    expect(fs.existsSync(path.join(service, '.lessons/cache/sources.bin'))).toBe(true);
    const result = runLessons(['preflight', TASK, '--json'], { cwd: service });
    expect(result.stderr).toBe('');
    const selected = (JSON.parse(result.stdout) as { selected: Selected[] }).selected;
    const ids = selected.map((lesson) => lesson.id);
    expect(ids).toContain(`platform:${PIN}`);
    expect(selected.find((lesson) => lesson.id === `platform:${PIN}`)!.path).toBe(`.lessons/sources/platform/lessons/patterns/${PIN}.md`);
    expect(ids).not.toContain('platform:pattern-pin-ci-actions-by-tag');
    expect(ids).not.toContain(`platform:${MOVED}`);
    expect(runLessons(['preflight', TASK], { cwd: service }).stdout).toContain(`platform:${PIN}`);

    // A sources segment that cannot be read: said by name, and the local run goes on.
    fs.writeFileSync(path.join(service, '.lessons/cache/sources.bin'), 'not a segment');
    const damaged = runLessons(['preflight', TASK, '--json'], { cwd: service });
    expect(damaged.exitCode).toBe(0);
    expect(damaged.stderr).toContain('.lessons/cache/sources.bin cannot be read');
    expect((JSON.parse(damaged.stdout) as { selected: Selected[] }).selected.every((lesson) => !lesson.id.startsWith('platform:'))).toBe(true);
  });
});
