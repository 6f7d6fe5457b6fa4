import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentError } from '../../src/errors.js';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

const noTrace = (text: string) => expect(text).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);

describe('usage and environment problems are named, with the fix, exit 2', () => {
  it('-C without a directory', () => {
    for (const args of [['-C', '-C', 'lint'], ['lint', '-C'], ['-C']]) {
      const result = runCli(args, { cwd: tempLessonsRepo() });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toBe('lessons: -C needs a directory after it: lessons -C <dir> <command>\n');
    }
  });

  it('a yargs parse error is a usage error, not an internal one', () => {
    const result = runCli(['show'], { cwd: tempLessonsRepo() });
    expect(result.exitCode).toBe(2);
    noTrace(result.stderr);
    expect(result.stderr).toContain('run `lessons help');
  });

  it('a .lessons/ that cannot be written: preflight, new and index name the path and the fix', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a' }));
    fs.writeFileSync(path.join(root, '.lessons'), 'not a folder\n');
    for (const args of [['preflight', 'bump the version'], ['new', 'Deploy skipped the migration'], ['index']]) {
      const result = runCli(args, { cwd: root });
      expect(result.exitCode, `${args[0]}: ${result.stderr}`).toBe(2);
      noTrace(result.stderr);
      expect(result.stderr).toContain('.lessons');
      expect(result.stderr).toContain('a file stands where a folder is expected: move the file away');
    }
  });

  it('permission denied (EACCES, as Node reports it) becomes a message with the fix', () => {
    const error = Object.assign(new Error("EACCES: permission denied, open '/repo/.lessons/preflight/last.json'"), {
      code: 'EACCES',
      errno: -13,
      syscall: 'open',
      path: '/repo/.lessons/preflight/last.json',
    });
    expect(environmentError(error)).toMatchObject({
      exitCode: 2,
      message: 'open failed on /repo/.lessons/preflight/last.json: permission denied: give your user access to it (or run lessons as the user who owns the repository)',
    });
    expect(environmentError(new TypeError('x is undefined'))).toBeUndefined();
  });
});
