import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

function repo(): string {
  return tempLessonsRepo({ ...lessonFile({ id: 'case-old', title: 'Old lesson', last_validated_at: '2024-01-01' }) });
}

describe('lessons report --html / --format markdown (built binary)', () => {
  it('writes the page for --now, the same bytes twice, and prints markdown for the job summary', () => {
    const root = repo();
    const first = runCli(['report', '--html', 'out/report.html', '--now', '2026-11-21', '--format', 'markdown'], { cwd: root });
    fs.mkdirSync(path.join(root, 'out'));
    const written = runCli(['report', '--html', 'out/report.html', '--now', '2026-11-21', '--format', 'markdown'], { cwd: root });
    expect(first.exitCode).toBe(2);
    expect(first.stderr).toContain('no folder');
    expect(written.stderr).toBe('');
    expect(written.exitCode).toBe(0);
    expect(written.stdout).toContain('## Lessons report (2026-11-21)');
    expect(written.stdout).toContain('| case-old | 2024-01-01 | 1055 | lessons accept case-old |');
    const page = fs.readFileSync(path.join(root, 'out/report.html'), 'utf8');
    expect(page).toContain('<dd data-figure="stale">1</dd>');
    expect(runCli(['report', '--html', 'out/report.html', '--now', '2026-11-21'], { cwd: root }).stdout).toBe('wrote out/report.html: 1 lessons, 1 stale, 0 not working\n');
    expect(fs.readFileSync(path.join(root, 'out/report.html'), 'utf8')).toBe(page);
    expect(fs.readdirSync(path.join(root, 'out'))).toEqual(['report.html']);
  });

  it('refuses a date that is not YYYY-MM-DD and a folder as the page, writing nothing', () => {
    const root = repo();
    const date = runCli(['report', '--now', '21/11/2026'], { cwd: root });
    expect([date.exitCode, date.stderr]).toEqual([2, "lessons: --now takes a date written YYYY-MM-DD, not '21/11/2026'\n"]);
    const folder = runCli(['report', '--html', 'lessons'], { cwd: root });
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toContain('it is a folder');
    const format = runCli(['report', '--format', 'yaml'], { cwd: root });
    expect(format.exitCode).toBe(2);
    expect(format.stderr).toContain('--format must be one of text, json, markdown');
  });
});
