import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

const MIGRATION = '## Situation\n\nThe column was dropped before the code stopped reading it.\n\n## Prevention Checklist\n\n- [ ] Expand, migrate, then contract, each in its own release.\n';

describe('lessons spec new (built CLI)', () => {
  it('writes requirements, design and tasks under specs/, pre-filled with the lessons preflight selects', () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-column-dropped-early', title: 'Database column dropped before the code deploy', tags: ['migration', 'database'], severity: 'high' }, MIGRATION),
      ...lessonFile({ id: 'case-cron', title: 'Cron job skipped a run at the DST change', tags: ['cron'] }),
    });
    const feature = 'Drop the old email column from the database';
    const preflight = JSON.parse(runCli(['preflight', feature, '--json'], { cwd: root }).stdout) as { selected: { id: string }[] };
    expect(preflight.selected.map((lesson) => lesson.id)).toEqual(['case-column-dropped-early']);

    const result = runCli(['spec', 'new', feature], { cwd: root });
    expect(result).toEqual({
      stdout:
        'wrote specs/drop-the-old-email-column-from-the-database/requirements.md\n' +
        'wrote specs/drop-the-old-email-column-from-the-database/design.md\n' +
        'wrote specs/drop-the-old-email-column-from-the-database/tasks.md\n' +
        'lessons carried in: case-column-dropped-early\n',
      stderr: '',
      exitCode: 0,
    });
    const read = (name: string): string => fs.readFileSync(path.join(root, 'specs/drop-the-old-email-column-from-the-database', name), 'utf8');
    const requirements = read('requirements.md');
    expect(requirements.startsWith(`# Requirements: ${feature}\n\nStage 1 of references/spec-first-flow.md`)).toBe(true);
    expect(requirements).toContain(
      '## Lessons that apply\n\n' +
        `Selected by \`lessons preflight "${feature}"\`: an old mistake in this area is cheapest to honour before the design exists.\n\n` +
        '- `case-column-dropped-early` (case, high): Database column dropped before the code deploy\n' +
        '  - [ ] Expand, migrate, then contract, each in its own release.\n',
    );
    expect(requirements).toContain('- R1: <what the change must do>. Acceptance: <command, exit code, output>.');
    expect(read('design.md')).toContain('## Lessons to design against');
    expect(read('design.md')).toContain('## One-way steps and how they are staged');
    expect(read('tasks.md')).toContain('## Checks from the lessons\n\n- [ ] Expand, migrate, then contract, each in its own release. (`case-column-dropped-early`)\n');
    expect(read('tasks.md')).toContain('- T1 -> R1:');
    expect(read('design.md')).not.toContain('case-cron');

    // A second run refuses and leaves the documents as they are.
    fs.appendFileSync(path.join(root, 'specs/drop-the-old-email-column-from-the-database/requirements.md'), '- R2: keep the old name readable for one release.\n');
    const before = read('requirements.md');
    const again = runCli(['spec', 'new', feature], { cwd: root });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toBe(
      'lessons: specs/drop-the-old-email-column-from-the-database/requirements.md, specs/drop-the-old-email-column-from-the-database/design.md, specs/drop-the-old-email-column-from-the-database/tasks.md already exist: edit them, or give the feature another name; nothing was written\n',
    );
    expect(read('requirements.md')).toBe(before);
  });

  it('says when preflight selects nothing, and refuses an empty feature or an unknown action', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-cron', title: 'Cron job skipped a run at the DST change', tags: ['cron'] }));
    const result = runCli(['spec', 'new', 'Add a dark mode toggle to the settings page'], { cwd: root });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.endsWith('preflight selected no lessons for this feature\n')).toBe(true);
    expect(fs.readFileSync(path.join(root, 'specs/add-a-dark-mode-toggle-to-the-settings-page/requirements.md'), 'utf8')).toContain(
      '`lessons preflight "Add a dark mode toggle to the settings page"` selected no lessons for this feature.',
    );
    expect(runCli(['spec', 'new', '  '], { cwd: root })).toMatchObject({ exitCode: 2, stderr: 'lessons: the feature is empty: lessons spec new "<feature>"\n' });
    expect(runCli(['spec', 'delete', 'x'], { cwd: root }).exitCode).toBe(2);
  });
});
