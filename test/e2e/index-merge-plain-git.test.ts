import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, committedLessonsRepo, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, writeFiles } from '../helpers/repo.js';

/**
 * lessons/index.json merged by plain git: no `lessons hooks install`, no merge driver in the
 * config, only the `.gitattributes` that `lessons init` commits. GitHub's merge button merges
 * the same way (built-in drivers only), so what passes here passes there.
 */

const ids = ['case-2026-01-02-b', 'case-2026-01-04-d', 'case-2026-01-06-f', 'case-2026-01-08-h'];
const path_ = (id: string): string => `lessons/cases/${id}.md`;

/** A repository as `lessons init` leaves it (its .gitattributes), with four cases and nothing per clone. */
async function plainRepo(): Promise<string> {
  const root = await committedLessonsRepo(Object.assign({}, ...ids.map((id) => lessonFile({ id, title: `Lesson ${id.slice(-1)}` }))));
  fs.rmSync(path.join(root, path_('case-2026-01-01-example')));
  const init = runLessons(['init'], { cwd: root });
  expect(init.exitCode, init.stderr).toBe(0);
  expect(fs.readFileSync(path.join(root, '.gitattributes'), 'utf8')).toBe('lessons/index.json merge=union\n');
  // init set this clone's driver: a teammate who never ran it has none.
  runLessons(['hooks', 'uninstall'], { cwd: root });
  expect(runLessons(['index'], { cwd: root }).exitCode).toBe(0);
  commitAll(root, 'lessons set up');
  expect(fs.readFileSync(path.join(root, '.git/config'), 'utf8')).not.toContain('lessons-index');
  expect(fs.readFileSync(path.join(root, '.git/info/attributes'), 'utf8')).not.toContain('lessons-index');
  return root;
}

type Change = { write?: Record<string, string>; remove?: string[] };

function branch(root: string, name: string, change: Change): void {
  git(root, 'checkout', '-q', '-b', name, 'main');
  writeFiles(root, change.write ?? {});
  for (const file of change.remove ?? []) fs.rmSync(path.join(root, file));
  expect(runLessons(['index'], { cwd: root }).exitCode).toBe(0);
  commitAll(root, `lessons on ${name}`);
}

interface Merged {
  /** `lessons index --check` right after the merge. */
  checkedFresh: boolean;
  /** What preflight said on stderr right after the merge. */
  preflightStderr: string;
  /** The index's lessons (id and severity) once `lessons index` ran, and whether it is then fresh. */
  repaired: string[];
  fresh: boolean;
}

/** Merges `first` then `second` into a branch from main with plain `git merge`; fails on any conflict. */
function mergeInOrder(root: string, first: string, second: string): Merged {
  git(root, 'checkout', '-q', '-B', `merge-${first}-${second}`, 'main');
  git(root, 'merge', '-q', '--no-edit', first);
  git(root, 'merge', '-q', '--no-edit', second); // throws on a conflict
  expect(git(root, 'status', '--porcelain')).toBe('');
  const checkedFresh = runLessons(['index', '--check'], { cwd: root }).exitCode === 0;
  const preflight = runLessons(['preflight', '--json', 'lesson b d f h'], { cwd: root });
  expect(preflight.exitCode, preflight.stderr).toBe(0);
  expect(runLessons(['index'], { cwd: root }).exitCode).toBe(0);
  const index = JSON.parse(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')) as { lessons: { id: string; severity: string }[] };
  const fresh = runLessons(['index', '--check'], { cwd: root }).exitCode === 0;
  git(root, 'checkout', '-q', '-f', 'main');
  return { checkedFresh, preflightStderr: preflight.stderr, repaired: index.lessons.map((entry) => `${entry.id.slice(-1)}:${entry.severity}`), fresh };
}

/** Both merge orders of two branches from main. */
function bothOrders(left: Change, right: Change): Promise<Merged[]> {
  return plainRepo().then((root) => {
    branch(root, 'left', left);
    branch(root, 'right', right);
    return [mergeInOrder(root, 'left', 'right'), mergeInOrder(root, 'right', 'left')];
  });
}

const high = (id: string): Record<string, string> => lessonFile({ id, title: `Lesson ${id.slice(-1)}`, severity: 'high' });
const added = (id: string): Record<string, string> => lessonFile({ id, title: `Lesson ${id.slice(-1)}` });

/**
 * Each merge is clean. Where union merged the index exactly, it is fresh; where the two sides
 * touched neighbouring lines, union's index is caught (index --check fails, preflight says it
 * scanned the files instead) and `lessons index` repairs it. Either way the result, once
 * indexed, is the index of the merged tree.
 */
function expectSettled(results: Merged[], want: string[]): void {
  for (const result of results) {
    expect(result.repaired).toEqual(want);
    expect(result.fresh).toBe(true);
    if (!result.checkedFresh) expect(result.preflightStderr, result.preflightStderr).toMatch(/lessons\/index\.json (lists lessons twice or out of order|is not a valid index|is older than the lesson files)[^;]*; scanned the lesson files instead/);
    else expect(result.preflightStderr).toBe('');
  }
}

describe('lessons/index.json merged by plain git, no per-clone setup', () => {
  it('add/add of lessons apart from each other: clean, and the merged index is fresh in both orders', async () => {
    const results = await bothOrders({ write: added('case-2026-01-03-c') }, { write: added('case-2026-01-07-g') });
    expect(results.map((result) => result.checkedFresh)).toEqual([true, true]);
    expectSettled(results, ['b:medium', 'c:medium', 'd:medium', 'f:medium', 'g:medium', 'h:medium']);
  });

  it('add/add of neighbouring lessons (the same gap, and both at the end): clean, caught when union got it wrong', async () => {
    expectSettled(await bothOrders({ write: added('case-2026-01-05-e') }, { write: added('case-2026-01-05-ee') }), ['b:medium', 'd:medium', 'e:medium', 'e:medium', 'f:medium', 'h:medium']);
    const atEnd = await bothOrders({ write: added('case-2026-01-09-x') }, { write: added('case-2026-01-09-y') });
    expect(atEnd.map((result) => result.checkedFresh)).toEqual([false, false]);
    expectSettled(atEnd, ['b:medium', 'd:medium', 'f:medium', 'h:medium', 'x:medium', 'y:medium']);
  });

  it('edit/edit of different lessons, apart and neighbouring: clean in both orders', async () => {
    const apart = await bothOrders({ write: high(ids[0]!) }, { write: high(ids[2]!) });
    expect(apart.map((result) => result.checkedFresh)).toEqual([true, true]);
    expectSettled(apart, ['b:high', 'd:medium', 'f:high', 'h:medium']);
    const neighbours = await bothOrders({ write: high(ids[0]!) }, { write: high(ids[1]!) });
    expect(neighbours.map((result) => result.checkedFresh)).toEqual([false, false]);
    expectSettled(neighbours, ['b:high', 'd:high', 'f:medium', 'h:medium']);
  });

  it('delete/edit of different lessons, apart and neighbouring: clean in both orders', async () => {
    const apart = await bothOrders({ remove: [path_(ids[0]!)] }, { write: high(ids[2]!) });
    expect(apart.map((result) => result.checkedFresh)).toEqual([true, true]);
    expectSettled(apart, ['d:medium', 'f:high', 'h:medium']);
    const neighbours = await bothOrders({ remove: [path_(ids[0]!)] }, { write: high(ids[1]!) });
    expect(neighbours.map((result) => result.checkedFresh)).toEqual([false, false]);
    expectSettled(neighbours, ['d:high', 'f:medium', 'h:medium']);
  });
});

describe('an index union left with an old entry beside the new one', () => {
  it('preflight takes it for stale and scans the lesson files, showing the lesson as it is now', async () => {
    const root = await committedLessonsRepo(lessonFile({ id: 'case-2026-01-02-b', title: 'Release notes skipped the migration', severity: 'high' }));
    const file = path.join(root, 'lessons/index.json');
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const at = lines.findIndex((line) => line.includes('"id":"case-2026-01-02-b"'));
    // The old version of the line (severity low) kept before the new one, as union keeps both sides.
    lines.splice(at, 0, `${lines[at]!.replace('"severity":"high"', '"severity":"low"').replace(/,?$/, ',')}`);
    fs.writeFileSync(file, lines.join('\n'));
    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(file, future, future);
    const result = runLessons(['preflight', '--json', 'release notes skipped the migration'], { cwd: root });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr, result.stderr).toContain('lessons/index.json lists lessons twice or out of order (a merge without the lessons driver); scanned the lesson files instead');
    const selected = (JSON.parse(result.stdout) as { selected: { id: string; severity: string }[] }).selected;
    expect(selected.filter((lesson) => lesson.id === 'case-2026-01-02-b')).toEqual([expect.objectContaining({ severity: 'high' })]);
  });
});
