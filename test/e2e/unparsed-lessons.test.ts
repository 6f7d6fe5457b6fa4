import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

/** A lesson whose frontmatter is not YAML: the file exists, no lesson comes of it. */
const BROKEN = { 'lessons/cases/case-broken.md': '---\nid: case-broken\ntitle: [unclosed\nlevel: case\n---\n\n## Situation\n\nIt broke.\n' };

function repo(): string {
  return tempLessonsRepo({ ...lessonFile({ id: 'case-good', title: 'Good lesson' }), ...BROKEN });
}

describe('a lesson file that does not parse is named, not dropped (built CLI)', () => {
  it('list prints the others, names the file and its parse error on stderr, and exits 1', () => {
    const result = runCli(['list'], { cwd: repo(), env: { NO_COLOR: '1' } });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('case-good');
    expect(result.stdout).not.toContain('case-broken');
    expect(result.stderr).toMatch(/^lessons: lessons\/cases\/case-broken\.md(:\d+)? is left out: it does not parse: .+ \(fix it; `lessons lint` lists every problem\)\n$/);
    const json = runCli(['list', '--json'], { cwd: repo() });
    expect(json.exitCode).toBe(1);
    expect((JSON.parse(json.stdout) as { id: string }[]).map((entry) => entry.id)).toEqual(['case-good']);
  });

  it('show of the broken file’s id names the file and the parse error instead of "no lesson with id"', () => {
    const result = runCli(['show', 'case-broken'], { cwd: repo() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toContain('no lesson with id');
    expect(result.stderr).toMatch(/lessons\/cases\/case-broken\.md(:\d+)? holds no lesson `case-broken`: it does not parse: ./);
  });

  it('report names the file and exits 1; its JSON lists it under unparsed', () => {
    const result = runCli(['report', '--json'], { cwd: repo() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('lessons/cases/case-broken.md');
    expect(result.stderr).toContain('is left out: it does not parse');
    const report = JSON.parse(result.stdout) as { total: number; unparsed: { file: string; message: string }[] };
    expect(report.total).toBe(1);
    expect(report.unparsed).toEqual([expect.objectContaining({ file: 'lessons/cases/case-broken.md', message: expect.any(String) })]);
  });
});
