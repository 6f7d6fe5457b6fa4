import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

const today = new Date().toISOString().slice(0, 10);
const NO_CHECKLIST = '## Situation\n\nSomething broke.\n';

describe('lifecycle commands through the built binary', () => {
  it('accept: exit 0 on success, exit 1 with the lint findings when refused', () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a', status: 'candidate', last_validated_at: undefined }),
      ...lessonFile({ id: 'case-b', status: 'candidate', last_validated_at: undefined }, NO_CHECKLIST),
    });
    expect(runCli(['accept', 'case-a'], { cwd: root })).toEqual({ stdout: `accepted case-a: candidate -> validated (last_validated_at ${today})\n`, stderr: '', exitCode: 0 });
    expect(runCli(['-C', root, 'accept', 'case-b'])).toEqual({
      stdout: '',
      stderr:
        'lessons: cannot accept `case-b` as validated: it would not be lint-clean:\n' +
        '  lessons/cases/case-b.md: [checklist] a validated lesson needs a non-empty `## Prevention Checklist` list (`- [ ] ...` items): preflight shows nothing without it\n' +
        'fix the lesson, then run `lessons accept case-b` again\n',
      exitCode: 1,
    });
  });

  it('promote: refusal names the missing evidence (exit 1); a missing --to is a usage error (exit 2)', () => {
    const root = tempLessonsRepo({ ...lessonFile({ id: 'case-a' }), ...lessonFile({ id: 'case-b', duplicate_of: 'case-a' }) });
    expect(runCli(['promote', 'case-a', 'case-b', '--to', 'pattern', '--title', 'One version'], { cwd: root })).toEqual({
      stdout: '',
      stderr: 'lessons: cannot promote to a pattern: needs 2 independent cases, has 1 (case-a and case-b are duplicates of one incident)\n',
      exitCode: 1,
    });
    const usage = runCli(['promote', 'case-a', 'case-b', '--title', 'x'], { cwd: root });
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain('`lessons promote` needs --to');
  });

  it('promote, apply and retire print what they did', () => {
    const root = tempLessonsRepo({ ...lessonFile({ id: 'case-a' }), ...lessonFile({ id: 'case-b' }) });
    expect(runCli(['promote', 'case-a', 'case-b', '--to', 'pattern', '--title', 'One version', '--id', 'pattern-one-version'], { cwd: root })).toEqual({
      stdout:
        'wrote lessons/patterns/pattern-one-version.md (candidate pattern from case-a, case-b; 1 checklist item gathered)\n' +
        'write its Situation (what the sources have in common) and review its checklist, then run `lessons accept pattern-one-version`\n',
      stderr: '',
      exitCode: 0,
    });
    const pattern = path.join(root, 'lessons/patterns/pattern-one-version.md');
    fs.writeFileSync(pattern, fs.readFileSync(pattern, 'utf8').replace(/^What the 2 cases below .*$/m, 'Every manifest carries the version.'));
    expect(runCli(['accept', 'pattern-one-version'], { cwd: root }).exitCode).toBe(0);
    runCli(['apply', 'pattern-one-version', '--context', 'web', '--ref', 'PR #1', '--date', '2026-11-01'], { cwd: root });
    expect(runCli(['apply', 'pattern-one-version', '--context', 'web', '--ref', 'PR #2', '--date', '2026-11-02'], { cwd: root }).stdout).toBe(
      'recorded pattern-one-version in web (PR #2, 2026-11-02)\n' +
        'note: web already had an application; a repeated context is not a new one\n' +
        '2 applications in 1 distinct context (web); a principle needs 3\n',
    );
    expect(runCli(['apply', 'pattern-one-version', '--context', 'web', '--ref', 'PR #2'], { cwd: root }).stdout).toBe(
      'already recorded: pattern-one-version in web (PR #2, 2026-11-02); nothing changed\n2 applications in 1 distinct context (web); a principle needs 3\n',
    );
    expect(runCli(['retire', 'case-a'], { cwd: root })).toMatchObject({ exitCode: 2, stderr: 'lessons: say what replaces the lesson or why it no longer holds: --superseded-by <id> or --reason "..."\n' });
    expect(runCli(['index', '--check'], { cwd: root }).exitCode).toBe(0);
  });

  it('apply: refused on a candidate pattern (exit 1), with the command that accepts it', () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a' }),
      ...lessonFile({ id: 'case-b' }),
      ...lessonFile({ id: 'pattern-p', level: 'pattern', status: 'candidate', last_validated_at: undefined, source_case_ids: ['case-a', 'case-b'] }),
    });
    expect(runCli(['apply', 'pattern-p', '--context', 'web', '--ref', 'PR #1'], { cwd: root })).toEqual({
      stdout: '',
      stderr: 'lessons: `pattern-p` is a candidate pattern: only applications of validated patterns count; review it and run `lessons accept pattern-p` first\n',
      exitCode: 1,
    });
  });

  it('promote --to principle: refused while a source pattern has an empty checklist (exit 1)', () => {
    const applications = [
      { context: 'web', ref: 'PR #1', validated_at: '2026-10-01' },
      { context: 'api', ref: 'PR #2', validated_at: '2026-10-02' },
      { context: 'cli', ref: 'PR #3', validated_at: '2026-10-03' },
    ];
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a' }),
      ...lessonFile({ id: 'case-b' }),
      ...lessonFile({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'], applications }, NO_CHECKLIST),
    });
    expect(runCli(['promote', 'pattern-p', '--to', 'principle', '--title', 'One source of truth'], { cwd: root })).toEqual({
      stdout: '',
      stderr: 'lessons: cannot promote to a principle: `pattern-p` has an empty Prevention Checklist; a principle gathers the checks its patterns proved, so write them first\n',
      exitCode: 1,
    });
    const fixed = tempLessonsRepo({
      ...lessonFile({ id: 'case-a' }),
      ...lessonFile({ id: 'case-b' }),
      ...lessonFile({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'], applications }),
    });
    expect(runCli(['promote', 'pattern-p', '--to', 'principle', '--title', 'One source of truth'], { cwd: fixed }).exitCode).toBe(0);
  });

  it('lint: a candidate pattern without its evidence is a warning, a validated one an error', () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a' }),
      ...lessonFile({ id: 'pattern-p', level: 'pattern', status: 'candidate', last_validated_at: undefined, source_case_ids: ['case-a'] }),
    });
    const warned = runCli(['lint'], { cwd: root });
    expect(warned.exitCode).toBe(0);
    expect(warned.stdout + warned.stderr).toContain('a candidate pattern without the evidence yet: needs 2 independent cases, has 1');
    const strict = tempLessonsRepo({ ...lessonFile({ id: 'case-a' }), ...lessonFile({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a'] }) });
    const failed = runCli(['lint'], { cwd: strict });
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout + failed.stderr).toContain('not enough evidence for a pattern: needs 2 independent cases, has 1');
  });

  it('capture reads standard input and reports created and bumped lessons', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }));
    const input = '[LESSON]\ntitle: Version bump missed the manifest\n[/LESSON]\n[LESSON]\ntitle: Cron skipped a run\n[/LESSON]\n';
    expect(runCli(['capture', '-'], { cwd: root, input })).toEqual({
      stdout:
        'bumped lessons/cases/case-a.md: near-duplicate of case-a (similarity 1.00); occurrences +1\n' +
        `created lessons/cases/case-${today}-cron-skipped-a-run.md (candidate, source: auto)\n`,
      stderr: '',
      exitCode: 0,
    });
    expect(runCli(['capture'], { cwd: root, input: 'nothing here' }).stdout).toBe('no [LESSON] or [PROCESS_KNOWLEDGE] blocks found; nothing written\n');
    expect(runCli(['capture', 'notes.md', '--from-error', 'log.txt'], { cwd: root })).toMatchObject({ exitCode: 2, stderr: 'lessons: pass a transcript or --from-error <log>, not both\n' });
    expect(runCli(['index', '--check'], { cwd: root }).exitCode).toBe(0);
  });

  it('report --json prints the report as data', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a' }));
    const result = runCli(['report', '--json'], { cwd: root });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 1, counts: { case: { validated: 1 } }, usage: { available: false } });
    expect(runCli(['report'], { cwd: root }).stdout).toContain('candidate backlog: 0 (0 auto-captured, policy cap 25)');
  });
});
