import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, runCli, tempLessonsRepo } from '../helpers/repo.js';

const body = (item: string): string => `## Situation\n\nIt broke.\n\n## Prevention Checklist\n\n- [ ] ${item}\n`;
type Report = { efficacy: { not_working: number; lessons: { id: string; working: boolean; recurrences: unknown[] }[] } };

describe('efficacy counts only recurrences after a lesson was shown (built CLI)', () => {
  it('a pattern promoted today and shown today is not "not working": the occurrences promote summed are its birth', () => {
    const root = initGitRepo(
      tempLessonsRepo({
        ...lessonFile({ id: 'case-a', title: 'Manifest kept the old version' }, body('Bump every manifest.')),
        ...lessonFile({ id: 'case-b', title: 'Lockfile kept the old version' }, body('Bump the lockfile.')),
      }),
    );
    const promoted = runCli(['promote', 'case-a', 'case-b', '--to', 'pattern', '--title', 'Versions live in one place', '--id', 'pattern-one-version'], { cwd: root });
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    git(root, 'add', '-A');
    git(root, '-c', 'core.hooksPath=/dev/null', 'commit', '-qm', 'release', '-m', 'Lessons-Preflight: pattern-one-version');
    const report = JSON.parse(runCli(['report', '--json'], { cwd: root }).stdout) as Report;
    expect(report.efficacy.lessons.find((lesson) => lesson.id === 'pattern-one-version')).toMatchObject({ working: true, recurrences: [] });
    expect(report.efficacy.not_working).toBe(0);
  });
});
