import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, committedLessonsRepo, installBinWrapper, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, writeFiles } from '../helpers/repo.js';

function indexLessons(root: string): string[] {
  return (JSON.parse(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')) as { lessons: { id: string }[] }).lessons.map((entry) => entry.id);
}

/** A committed lessons repository with two cases, the hooks and the merge driver installed. */
async function sharedRepo(): Promise<string> {
  const root = await committedLessonsRepo({
    ...lessonFile({ id: 'case-2026-02-01-first', title: 'First' }),
    ...lessonFile({ id: 'case-2026-03-01-second', title: 'Second' }),
  });
  installBinWrapper(root);
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n.lessons/\n');
  const installed = runLessons(['hooks', 'install'], { cwd: root });
  expect(installed.exitCode, installed.stderr).toBe(0);
  expect(installed.stdout).toContain('merge driver for lessons/index.json: set in git config and .git/info/attributes; added merge=union to .gitattributes (commit it)');
  expect(runLessons(['index'], { cwd: root }).exitCode).toBe(0);
  commitAll(root, 'lessons set up');
  return root;
}

/** On a new branch from main: writes the files, rebuilds the index, commits. */
function branch(root: string, name: string, files: Record<string, string>): void {
  git(root, 'checkout', '-q', '-b', name, 'main');
  writeFiles(root, files);
  const indexed = runLessons(['index'], { cwd: root });
  expect(indexed.exitCode, indexed.stderr).toBe(0);
  commitAll(root, `lessons on ${name}`);
}

/** Merges `name` into the current branch, expecting a conflict; returns git's output. */
function failedMerge(root: string, name: string): string {
  try {
    git(root, 'merge', '--no-edit', name);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return `${stdout}${stderr}`;
  }
  throw new Error(`merging ${name} did not conflict`);
}

describe('lessons/index.json across parallel branches (real git merges)', () => {
  it('two branches that each add a lesson and change another merge without a conflict, and the index is fresh', async () => {
    const root = await sharedRepo();
    branch(root, 'left', {
      ...lessonFile({ id: 'case-2026-11-20-left', title: 'Left adds a case' }),
      ...lessonFile({ id: 'case-2026-02-01-first', title: 'First, retitled on the left' }),
    });
    branch(root, 'right', {
      ...lessonFile({ id: 'case-2026-11-21-right', title: 'Right adds a case' }),
      ...lessonFile({ id: 'case-2026-03-01-second', title: 'Second', severity: 'high' }),
    });
    git(root, 'checkout', '-q', 'main');
    git(root, 'merge', '-q', '--no-edit', 'left');
    git(root, 'merge', '--no-edit', 'right');
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(indexLessons(root)).toEqual(['case-2026-01-01-example', 'case-2026-02-01-first', 'case-2026-03-01-second', 'case-2026-11-20-left', 'case-2026-11-21-right']);
    const check = runLessons(['index', '--check'], { cwd: root });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(runLessons(['lint'], { cwd: root }).exitCode).toBe(0);
  });

  it('a rebase replays a lesson branch over another without a conflict', async () => {
    const root = await sharedRepo();
    branch(root, 'left', lessonFile({ id: 'case-2026-11-20-left', title: 'Left' }));
    branch(root, 'right', lessonFile({ id: 'case-2026-11-20-right', title: 'Right' }));
    git(root, 'rebase', '-q', 'left');
    expect(indexLessons(root)).toEqual(['case-2026-01-01-example', 'case-2026-02-01-first', 'case-2026-03-01-second', 'case-2026-11-20-left', 'case-2026-11-20-right']);
    expect(runLessons(['index', '--check'], { cwd: root }).exitCode).toBe(0);
  });

  it('without the driver (uninstalled), git falls back to the committed merge=union: the same two additions merge without a conflict', async () => {
    const root = await sharedRepo();
    runLessons(['hooks', 'uninstall'], { cwd: root });
    expect(fs.readFileSync(path.join(root, '.git/info/attributes'), 'utf8')).not.toContain('lessons-index');
    branch(root, 'left', lessonFile({ id: 'case-2026-11-20-left', title: 'Left' }));
    branch(root, 'right', lessonFile({ id: 'case-2026-11-20-right', title: 'Right' }));
    git(root, 'checkout', '-q', 'main');
    git(root, 'merge', '-q', '--no-edit', 'left');
    git(root, 'merge', '-q', '--no-edit', 'right');
    expect(git(root, 'status', '--porcelain')).toBe('');
  });

  it('both sides changing one field of one lesson is a conflict that says how to resolve it', async () => {
    const root = await sharedRepo();
    branch(root, 'left', lessonFile({ id: 'case-2026-02-01-first', title: 'First', severity: 'high' }));
    branch(root, 'right', lessonFile({ id: 'case-2026-02-01-first', title: 'First', severity: 'low' }));
    git(root, 'checkout', '-q', 'main');
    git(root, 'merge', '-q', '--no-edit', 'left');
    const output = failedMerge(root, 'right');
    expect(output).toContain('case-2026-02-01-first: both sides changed severity');
    expect(output).toContain('then run `lessons index` and `git add lessons/index.json`');
  });
});

describe('lessons index --merge refuses bad input (exit 1, our side untouched)', () => {
  it('a 0-byte theirs, and an entry with id ../../PWNED and path /etc/passwd', async () => {
    const root = await committedLessonsRepo();
    const index = fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8');
    const entry = (JSON.parse(index) as { lessons: Record<string, unknown>[] }).lessons[0]!;
    const pwned = `{\n  "version": 2,\n  "lessons": [\n    ${JSON.stringify({ ...entry, id: '../../PWNED', path: '/etc/passwd' })}\n  ]\n}\n`;
    writeFiles(root, { 'base.json': index, 'ours.json': index, 'empty.json': '', 'pwned.json': pwned });
    for (const [theirs, said] of [
      ['empty.json', 'their index is empty'],
      ['pwned.json', 'their index does not match the index schema (lessons[0].id:'],
    ] as const) {
      const result = runLessons(['index', '--merge', 'base.json', 'ours.json', theirs, 'lessons/index.json'], { cwd: root });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(said);
      expect(fs.readFileSync(path.join(root, 'ours.json'), 'utf8')).toBe(index);
    }
  });
});
