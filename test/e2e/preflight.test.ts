import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { RELEASE_AND_FORCE_PUSH } from '../helpers/preflight.js';
import { runCli, tempDir, tempLessonsRepo } from '../helpers/repo.js';

function repo(): string {
  const root = tempLessonsRepo(RELEASE_AND_FORCE_PUSH);
  expect(runCli(['index', '-C', root]).exitCode).toBe(0);
  return root;
}

const noStackTrace = (stderr: string): void => expect(stderr).not.toMatch(/\n\s+at /);

describe('lessons preflight (built binary)', () => {
  it('prints the selected lessons with their checklists and writes a receipt', () => {
    const root = repo();
    const result = runCli(['preflight', 'bump the plugin version', '-C', root]);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toContain('lessons preflight: 1 lesson for "bump the plugin version"');
    expect(result.stdout).toContain('  1. Version bump missed the plugin manifest');
    expect(result.stdout).toContain('- [ ] Every manifest that carries the version is updated in the same commit.');
    expect(result.stdout).toContain('receipt: .lessons/preflight/last.json');
    expect(JSON.parse(fs.readFileSync(path.join(root, '.lessons/preflight/last.json'), 'utf8')).selected).toEqual([
      'case-2026-01-01-version-bump-missed-manifest',
    ]);
  });

  it('runs from the current directory (inside the repository) as well as with -C', () => {
    const root = repo();
    fs.mkdirSync(path.join(root, 'src'));
    const result = runCli(['preflight', 'bump the plugin version'], { cwd: path.join(root, 'src') });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Version bump missed the plugin manifest');
  });

  it('exits 0 and says so when nothing matches', () => {
    const result = runCli(['preflight', 'write a haiku for the team newsletter', '-C', repo()]);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/^lessons preflight: no lessons for "write a haiku for the team newsletter"\nNo lesson is relevant enough/);
  });

  it('prints JSON with --json and markdown with --format markdown', () => {
    const root = repo();
    const json = runCli(['preflight', 'bump the plugin version', '--json', '-C', root]);
    expect(json.exitCode).toBe(0);
    const data = JSON.parse(json.stdout) as { task: string; selected: Record<string, unknown>[] };
    expect(data.task).toBe('bump the plugin version');
    expect(Object.keys(data.selected[0]!)).toEqual(['id', 'level', 'status', 'severity', 'title', 'path', 'score', 'reasons', 'checklist', 'kind', 'insight']);
    const markdown = runCli(['preflight', 'bump the plugin version', '--format', 'markdown', '-C', root]);
    expect(markdown.stdout).toMatch(/^### Lessons preflight: "bump the plugin version"\n/);
  });

  it('returns the critical lesson whose trigger matches in hook mode', () => {
    const result = runCli(['preflight', '--tool', 'Bash', '--command', 'git push --force origin main', '--json', '-C', repo()]);
    expect(result.exitCode).toBe(0);
    const data = JSON.parse(result.stdout) as { mode: string; selected: { id: string; reasons: string[] }[] };
    expect(data.mode).toBe('hook');
    expect(data.selected.map((l) => l.id)).toEqual(['case-2026-01-02-force-push-rewrote-main']);
    expect(data.selected[0]!.reasons).toContain('trigger: command matches git push --force*');
  });

  it('caps the output with --budget, dropping whole lessons', () => {
    const result = runCli(['preflight', 'bump the plugin version', '--budget', '20', '-C', repo()]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('Version bump missed the plugin manifest');
    expect(result.stdout).toContain('left out to fit the --budget');
  });

  it('warns on stderr and still answers when the index is missing', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-2026-01-01-version-bump-missed-manifest', title: 'Version bump missed the plugin manifest' }));
    const result = runCli(['preflight', 'bump the plugin version', '-C', root]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('lessons: warning: lessons/index.json is missing; scanned the lesson files instead (run `lessons index` to make preflight fast again)\n');
    expect(result.stdout).toContain('Version bump missed the plugin manifest');
  });

  it('explains the token estimate in --help', () => {
    const result = runCli(['preflight', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('a token is estimated as 4 characters');
  });

  it.each([
    [['preflight', 'x', '--frobnicate'], /`lessons preflight` does not take --frobnicate/],
    [['guard', '--stage', 'pre-commit', '--frobnicate'], /`lessons guard` does not take --frobnicate/],
    [['preflight', 'x', '--budget'], /--budget needs a value/],
    [['preflight'], /give the task as text, or a --tool, --path or --command/],
    [['preflight', 'x', '--budget', 'lots'], /--budget takes a positive whole number, got 'lots'/],
    [['preflight', 'x', '--format', 'xml'], /--format must be text, markdown or json, got 'xml'/],
    [['preflight', 'x', '--tool'], /--tool/],
  ])('exits 2 with a usage message and no stack trace for %j', (args, message) => {
    const result = runCli([...args, '-C', repo()]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^lessons: /);
    expect(result.stderr).toMatch(message);
    noStackTrace(result.stderr);
  });

  it('exits 2 outside a lessons repository and for a -C directory that does not exist', () => {
    const outside = runCli(['preflight', 'release', '-C', tempDir()]);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toMatch(/^lessons: not a lessons repository/);
    noStackTrace(outside.stderr);
    const missing = runCli(['preflight', 'release', '-C', path.join(tempDir(), 'nope')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot change to/);
  });
});
