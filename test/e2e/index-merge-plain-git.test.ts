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
  const root = await committedLessonsRepo(Object.assign({}, ...ids.map((id) => titled(id))));
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

/** A branch's change: lesson files written and removed (a rename is both). */
type Change = { write?: Record<string, string>; remove?: string[] };

function branch(root: string, name: string, change: Change): void {
  git(root, 'checkout', '-q', '-b', name, 'main');
  writeFiles(root, change.write ?? {});
  for (const file of change.remove ?? []) fs.rmSync(path.join(root, file));
  expect(runLessons(['index'], { cwd: root }).exitCode).toBe(0);
  commitAll(root, `lessons on ${name}`);
}

const end = (id: string): string => id.slice(id.lastIndexOf('-') + 1);
/** Each lesson fires on its own file (src/<the end of its id>.ts): a task that touches them all selects the lessons there are (up to the policy's quota of cases). */
const TASK = ['--limit', '20', ...['b', 'c', 'd', 'e', 'ee', 'f', 'g', 'h', 'x', 'y'].flatMap((name) => ['--path', `src/${name}.ts`]), 'change the code'];
const titled = (id: string, severity = 'medium', title = id): Record<string, string> =>
  lessonFile({ id, title: `Lesson ${end(title)}`, severity, triggers: { paths: [`src/${end(id)}.ts`] } });
const WARNING =
  /lessons\/index\.json (lists lessons twice, out of order or after the wrong neighbour|is not a valid index|is older than the lesson files)[^;]*; scanned the lesson files instead/;

interface Merged {
  /** Whether the index git merged is, byte for byte, the one `lessons index` then writes. */
  exact: boolean;
  /** `lessons index --check` right after the merge. */
  checkExit: number;
  /** What preflight said on stderr right after the merge, and the lessons it selected (the end of the id, and severity). */
  preflightStderr: string;
  selected: string[];
  /** What preflight selects once `lessons index` ran. */
  selectedOnceIndexed: string[];
  /** The index's lessons once `lessons index` ran, and whether it is then fresh. */
  repaired: string[];
  fresh: boolean;
}

const short = (entry: { id: string; severity: string }): string => `${end(entry.id)}:${entry.severity}`;

const selectedBy = (stdout: string): string[] => (JSON.parse(stdout) as { selected: { id: string; severity: string }[] }).selected.map(short).sort();

/** Merges `first` then `second` into a branch from main with plain `git merge`; fails on any conflict. */
function mergeInOrder(root: string, first: string, second: string): Merged {
  git(root, 'checkout', '-q', '-B', `merge-${first}-${second}`, 'main');
  // Preflight ran before the merge, as it does at every task's start: its search cache is of main's index.
  expect(runLessons(['preflight', '--json', ...TASK], { cwd: root }).exitCode).toBe(0);
  git(root, 'merge', '-q', '--no-edit', first);
  git(root, 'merge', '-q', '--no-edit', second); // throws on a conflict
  expect(git(root, 'status', '--porcelain')).toBe('');
  const merged = fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8');
  const checkExit = runLessons(['index', '--check'], { cwd: root }).exitCode;
  const preflight = runLessons(['preflight', '--json', ...TASK], { cwd: root });
  expect(preflight.exitCode, preflight.stderr).toBe(0);
  expect(preflight.stderr).not.toMatch(/\n\s+at /); // no stack trace
  const selected = selectedBy(preflight.stdout);
  expect(runLessons(['index'], { cwd: root }).exitCode).toBe(0);
  const selectedOnceIndexed = selectedBy(runLessons(['preflight', '--json', ...TASK], { cwd: root }).stdout);
  const rebuilt = fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8');
  const fresh = runLessons(['index', '--check'], { cwd: root }).exitCode === 0;
  git(root, 'checkout', '-q', '-f', 'main');
  const repaired = (JSON.parse(rebuilt) as { lessons: { id: string; severity: string }[] }).lessons.map(short);
  return { exact: merged === rebuilt, checkExit, preflightStderr: preflight.stderr, selected, selectedOnceIndexed, repaired, fresh };
}

/** Both merge orders of two branches from main. */
async function bothOrders(left: Change, right: Change): Promise<Merged[]> {
  const root = await plainRepo();
  branch(root, 'left', left);
  branch(root, 'right', right);
  return [mergeInOrder(root, 'left', 'right'), mergeInOrder(root, 'right', 'left')];
}

const lesson = (id: string): Record<string, string> => titled(id);
const high = (id: string): Record<string, string> => titled(id, 'high');
/** A lesson given a new id (its file renamed, its title kept). */
const renamed = (from: string, to: string): Change => ({ remove: [path_(from)], write: titled(to, 'medium', from) });

/**
 * Every merge is clean, in both orders. Then either the merged index is exactly what `lessons
 * index` writes (index --check passes, preflight says nothing), or it is caught: index --check
 * fails, preflight says so and selects from the lesson files, so it never shows a deleted lesson
 * or an old version of one. Either way `lessons index` gives the index of the merged tree.
 */
function expectSettled(results: Merged[], outcome: 'exact' | 'caught', want: string[]): void {
  for (const result of results) {
    expect(result.repaired).toEqual(want);
    expect(result.fresh).toBe(true);
    expect(result.exact ? 'exact' : 'caught').toBe(outcome);
    if (result.exact) {
      expect(result.checkExit).toBe(0);
      expect(result.preflightStderr).toBe('');
    } else {
      expect(result.checkExit).toBe(1);
      expect(result.preflightStderr, result.preflightStderr).toMatch(WARNING);
    }
    // Preflight shows the lessons of the merged tree, as they are, as it does once the index is fresh.
    expect(result.selected).toEqual(result.selectedOnceIndexed);
    for (const item of result.selected) expect(want).toContain(item);
  }
}

// The four lessons on main: b, d, f, h.
const [b, d, f, h] = ids as [string, string, string, string];

describe('lessons/index.json merged by plain git, no per-clone setup (docs/index-merge.md)', () => {
  it('add/add of lessons apart: exact', async () => {
    expectSettled(await bothOrders({ write: lesson('case-2026-01-03-c') }, { write: lesson('case-2026-01-07-g') }), 'exact', ['b:medium', 'c:medium', 'd:medium', 'f:medium', 'g:medium', 'h:medium']);
  });

  it('add/add of two lessons that sort next to each other: caught', async () => {
    expectSettled(await bothOrders({ write: lesson('case-2026-01-05-e') }, { write: lesson('case-2026-01-05-ee') }), 'caught', ['b:medium', 'd:medium', 'e:medium', 'ee:medium', 'f:medium', 'h:medium']);
  });

  it('add/add of two lessons at the end of the list: caught', async () => {
    expectSettled(await bothOrders({ write: lesson('case-2026-01-09-x') }, { write: lesson('case-2026-01-09-y') }), 'caught', ['b:medium', 'd:medium', 'f:medium', 'h:medium', 'x:medium', 'y:medium']);
  });

  it('edit/edit of different lessons apart: exact', async () => {
    expectSettled(await bothOrders({ write: high(b) }, { write: high(f) }), 'exact', ['b:high', 'd:medium', 'f:high', 'h:medium']);
  });

  it('edit/edit of neighbouring lessons: caught', async () => {
    expectSettled(await bothOrders({ write: high(b) }, { write: high(d) }), 'caught', ['b:high', 'd:high', 'f:medium', 'h:medium']);
  });

  it('delete/edit of lessons apart: exact', async () => {
    expectSettled(await bothOrders({ remove: [path_(b)] }, { write: high(h) }), 'exact', ['d:medium', 'f:medium', 'h:high']);
  });

  it('delete/edit of the lesson after the deleted one\'s neighbour, and of the neighbour itself: caught', async () => {
    // Deleting b rewrites d's `after`: an edit of f is then a neighbouring change.
    expectSettled(await bothOrders({ remove: [path_(b)] }, { write: high(f) }), 'caught', ['d:medium', 'f:high', 'h:medium']);
    expectSettled(await bothOrders({ remove: [path_(b)] }, { write: high(d) }), 'caught', ['d:high', 'f:medium', 'h:medium']);
    expectSettled(await bothOrders({ write: high(b) }, { remove: [path_(d)] }), 'caught', ['b:high', 'f:medium', 'h:medium']);
  });

  it('delete of a lesson and an add that sorts right after it: caught (union keeps the deleted lesson\'s line in order)', async () => {
    const results = await bothOrders({ remove: [path_(d)] }, { write: lesson('case-2026-01-05-e') });
    expectSettled(results, 'caught', ['b:medium', 'e:medium', 'f:medium', 'h:medium']);
    for (const result of results) expect(result.selected).not.toContain('d:medium');
  });

  it('rename of a lesson (a new id) and an edit: exact apart, caught next to it', async () => {
    expectSettled(await bothOrders(renamed(b, 'case-2026-01-03-c'), { write: high(h) }), 'exact', ['c:medium', 'd:medium', 'f:medium', 'h:high']);
    expectSettled(await bothOrders(renamed(b, 'case-2026-01-03-c'), { write: high(d) }), 'caught', ['c:medium', 'd:high', 'f:medium', 'h:medium']);
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
    expect(result.stderr, result.stderr).toContain("lessons/index.json lists lessons twice, out of order or after the wrong neighbour (a merge that kept both sides' lines, or an index an older lessons wrote); scanned the lesson files instead");
    const selected = (JSON.parse(result.stdout) as { selected: { id: string; severity: string }[] }).selected;
    expect(selected.filter((lesson) => lesson.id === 'case-2026-01-02-b')).toEqual([expect.objectContaining({ severity: 'high' })]);
  });
});
