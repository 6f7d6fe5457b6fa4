import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestWord } from '../../src/util/suggest.js';
import { lessonFile } from '../helpers/lessons.js';
import { PACKAGE_ROOT, runCli, tempLessonsRepo } from '../helpers/repo.js';

const COMMANDS = ['preflight', 'guard', 'hooks', 'index', 'hook', 'lint', 'new', 'show', 'list', 'review', 'capture', 'accept', 'promote', 'apply', 'retire', 'report', 'init', 'export', 'ask', 'mcp'];

describe('closestWord', () => {
  it('finds a typo, a transposition and a unique prefix, and nothing far off', () => {
    expect(closestWord('prefligt', COMMANDS)).toBe('preflight');
    expect(closestWord('lnit', COMMANDS)).toBe('lint');
    expect(closestWord('pre-comit', ['pre-commit', 'pre-push', 'ci', 'final'])).toBe('pre-commit');
    expect(closestWord('prom', COMMANDS)).toBe('promote');
    expect(closestWord('frobnicate', COMMANDS)).toBeUndefined();
    expect(closestWord('re', COMMANDS)).toBeUndefined();
  });
});

describe('CLI conventions (built binary)', () => {
  it('--version prints the package version', () => {
    const version = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(runCli(['--version'])).toEqual({ stdout: `${version}\n`, stderr: '', exitCode: 0 });
  });

  it.each(COMMANDS)('`lessons help %s` prints the help of that command, with an example', (command) => {
    const result = runCli(['help', command]);
    const output = result.stdout + result.stderr;
    expect(result.exitCode).toBe(0);
    expect(output).toMatch(/usage/i);
    expect(output).toMatch(new RegExp(`(Examples:\\n\\s+|example: (echo .* \\| )?)lessons ${command}\\b`));
  });

  it('suggests the command meant', () => {
    expect(runCli(['prefligt', 'x'])).toEqual({ stdout: '', stderr: "lessons: unknown command 'prefligt': did you mean `lessons preflight`?\nrun `lessons --help` for the commands\n", exitCode: 2 });
    expect(runCli(['hooks', 'instal']).stderr).toMatch(/^lessons: unknown hooks action 'instal': did you mean `lessons hooks install`\?\n/);
  });

  it('suggests the --stage and enum value meant', () => {
    const stage = runCli(['guard', '--stage', 'pre-comit'], { cwd: tempLessonsRepo() });
    expect(stage).toMatchObject({ exitCode: 2, stdout: '' });
    expect(stage.stderr).toBe("lessons: unknown stage 'pre-comit': did you mean `--stage pre-commit`?\nthe stages are pre-commit, pre-push, ci, final\n");
    expect(runCli(['new', 'x', '--level', 'patern'], { cwd: tempLessonsRepo() }).stderr).toBe(
      "lessons: --level must be one of case, pattern, principle, not 'patern': did you mean `--level pattern`?\nrun `lessons help new` for its options and an example\n",
    );
  });

  it('says what is missing in its own words', () => {
    expect(runCli(['show'])).toEqual({ stdout: '', stderr: 'lessons: `lessons show` needs <id>: lessons show <id>\nrun `lessons help show` for its options and an example\n', exitCode: 2 });
    expect(runCli(['retire']).stderr).toContain('`lessons retire` needs <id>');
  });

  it('show with an unknown id exits 1', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a' }));
    expect(runCli(['show', 'case-z'], { cwd: root })).toEqual({ stdout: '', stderr: 'lessons: no lesson with id `case-z` (`lessons list` shows them all)\n', exitCode: 1 });
  });
});
