import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runGuard } from '../../src/guard/guard.js';
import { checkIndex, writeIndex } from '../../src/store/index-write.js';
import { openIndexIf } from '../../src/store/index-memo.js';
import { FILE_CACHE_DIR, statMark } from '../../src/store/file-cache.js';
import { GIT_VOUCH_MIN, openLessonCache } from '../../src/store/worktree.js';
import { statIdentity } from '../../src/io/fs.js';
import { loadLessons } from '../../src/lesson/load.js';
import { lint } from '../../src/lint/lint-repository.js';
import { lintTree } from '../../src/lint/lint.js';
import { loadPolicy } from '../../src/policy/validate-policy.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { generateRepo } from '../bench/synthetic.js';
import { fakeToken } from '../helpers/guard.js';
import { pick, seededRandom } from '../helpers/random.js';
import { git, initGitRepo, tempDir } from '../helpers/repo.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const META = `${FILE_CACHE_DIR}/meta.json`;
const STATS = `${FILE_CACHE_DIR}/stats.json`;
const STATS_DELTA = `${FILE_CACHE_DIR}/stats-delta.json`;

interface Outputs {
  index: string;
  lint: string;
  guard: string;
}

function indexBytes(root: string): string {
  const file = path.join(root, 'lessons/index.json');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(none)';
}

function setIndexBytes(root: string, bytes: string): void {
  if (bytes === '(none)') fs.rmSync(path.join(root, 'lessons/index.json'), { force: true });
  else fs.writeFileSync(path.join(root, 'lessons/index.json'), bytes);
}

/**
 * The pre-commit guard of the change staged as it is (lessons changed, the index not yet
 * rebuilt), then lessons index (its result, or the error it stops with, and the file), then lint.
 */
async function outputs(root: string): Promise<Outputs> {
  git(root, 'add', '-A');
  const guarded = await runGuard({ cwd: root, stage: 'pre-commit', now: NOW, env: {} });
  let index: string;
  try {
    const result = await writeIndex({ cwd: root });
    index = `${result.lessons}\n${indexBytes(root)}`;
  } catch (error) {
    index = `refused: ${(error as Error).message}`;
  }
  const linted = JSON.stringify(await lint({ cwd: root, now: NOW }));
  return { index, lint: linted, guard: JSON.stringify(guarded.findings) };
}

/** The outputs with no cache at all; the cache the repository had is put back untouched (mtimes too: a rename). */
async function coldOutputs(root: string): Promise<Outputs> {
  const dir = path.join(root, FILE_CACHE_DIR);
  const aside = path.join(root, '.lessons/cache/aside');
  const had = fs.existsSync(dir);
  if (had) fs.renameSync(dir, aside);
  try {
    return await outputs(root);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (had) fs.renameSync(aside, dir);
  }
}

function lessonFiles(root: string): string[] {
  return ['cases', 'patterns', 'principles'].flatMap((folder) => fs.readdirSync(path.join(root, 'lessons', folder)).map((name) => `lessons/${folder}/${name}`));
}

/** One random change to the tree, as a person or a tool makes them; returns what it did. */
function randomChange(root: string, random: () => number, step: number): string {
  const files = lessonFiles(root);
  const file = pick(random, files);
  const full = path.join(root, file);
  const text = fs.readFileSync(full, 'utf8');
  const roll = random();
  if (roll < 0.2) {
    fs.writeFileSync(full, text.replace('## Prevention Checklist\n', `## Prevention Checklist\n\n- [ ] Step ${step} checks again.\n`));
    return `edit body ${file}`;
  }
  if (roll < 0.35) {
    const status = pick(random, ['candidate', 'validated', 'canonical', 'retired']);
    fs.writeFileSync(full, text.replace(/^status: .*$/m, `status: ${status}`));
    return `status ${status} ${file}`;
  }
  if (roll < 0.45) {
    fs.writeFileSync(full, text.replace(/^title: .*$/m, `title: "Retitled in step ${step}"`));
    return `title ${file}`;
  }
  if (roll < 0.6) {
    const id = `case-9${String(step).padStart(4, '0')}-added`;
    const cites = files.filter((other) => other.startsWith('lessons/cases/')).slice(0, 2).map((other) => path.posix.basename(other, '.md'));
    const level = random() < 0.5 ? 'case' : 'pattern';
    const newId = level === 'case' ? id : id.replace('case-', 'pattern-');
    const sources = level === 'pattern' ? `source_case_ids: [${cites.join(', ')}]\n` : '';
    fs.writeFileSync(
      path.join(root, `lessons/${level === 'case' ? 'cases' : 'patterns'}/${newId}.md`),
      `---\nid: ${newId}\ntitle: Added in step ${step}\nlevel: ${level}\nstatus: candidate\n${sources}---\n\n## Prevention Checklist\n\n- [ ] Check step ${step}.\n`,
    );
    return `add ${newId}`;
  }
  if (roll < 0.72) {
    fs.rmSync(full);
    return `delete ${file}`;
  }
  if (roll < 0.8) {
    // A credential in the first paragraph: the summary carries it into the index's line.
    fs.writeFileSync(full, text.replace(/## Situation\n\n/, `## Situation\n\nKey ${fakeToken(random() < 0.5 ? 'github' : 'aws')} leaked. `));
    return `token ${file}`;
  }
  if (roll < 0.84) {
    const folder = pick(random, ['cases', 'patterns', 'principles']);
    const target = `lessons/${folder}/${random() < 0.5 ? path.posix.basename(file) : `renamed-${step}.md`}`;
    if (!fs.existsSync(path.join(root, target))) fs.renameSync(full, path.join(root, target));
    return `rename ${file} -> ${target}`;
  }
  if (roll < 0.9) {
    fs.writeFileSync(full, `${text.split('\n---\n')[0]!.replace(/^title: .*$/m, 'title: [broken')}\n---\n`);
    return `break ${file}`;
  }
  // The same size, the mtime put back: only ctime (and the content) tell.
  const stat = fs.statSync(full, { bigint: true });
  fs.writeFileSync(full, text.replace(/## Situation\n\nWe/, '## Situation\n\nUs'));
  setMtimeNs(full, stat.mtimeNs);
  return `same-size edit ${file}`;
}

/** Puts a file's mtime back to the nanosecond (Node's utimes keeps milliseconds only). */
function setMtimeNs(file: string, mtimeNs: bigint): void {
  const ns = String(mtimeNs % 1_000_000_000n).padStart(9, '0');
  execFileSync('touch', ['-m', '-d', `@${mtimeNs / 1_000_000_000n}.${ns}`, file]);
}

async function seededRepo(count: number, seed: number): Promise<string> {
  const root = tempDir();
  await generateRepo(root, count, seed);
  initGitRepo(root);
  fs.writeFileSync(path.join(root, '.gitignore'), '.lessons/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', 'lessons');
  return root;
}

describe('the file cache', () => {
  // At GIT_VOUCH_MIN lessons and more, the listing takes git's word for unchanged files (git-vouched.test.ts).
  it.each([
    [60, 24],
    [GIT_VOUCH_MIN + 40, 5],
  ])('gives index, lint and guard results byte-identical to a run without it, after random edits, adds, deletes and renames (%i lessons)', async (count, steps) => {
    const root = await seededRepo(count, 11);
    const random = seededRandom(2026);
    await outputs(root);
    for (let step = 0; step < steps; step++) {
      const changes = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomChange(root, random, step));
      const before = indexBytes(root);
      const warm = await outputs(root);
      setIndexBytes(root, before);
      const cold = await coldOutputs(root);
      expect({ changes, ...warm }).toEqual({ changes, ...cold });
    }
  }, 240_000);

  it('lints and indexes from cached summaries exactly as from parsed files', async () => {
    const root = await seededRepo(120, 5);
    await lint({ cwd: root, now: NOW });
    const warm = await lint({ cwd: root, now: NOW });
    const parsed = lintTree({ tree: loadLessons(root), policy: loadPolicy(root), today: '2026-06-01', schemaErrors: (data) => validateAgainst('lesson', data) });
    expect(JSON.stringify(warm)).toBe(JSON.stringify(parsed));
  });

  it('sees a same-size edit whose mtime was put back (its ctime changed)', async () => {
    const root = await seededRepo(5, 3);
    await writeIndex({ cwd: root });
    const file = path.join(root, lessonFiles(root).find((rel) => rel.startsWith('lessons/cases/'))!);
    const stat = fs.statSync(file, { bigint: true });
    const text = fs.readFileSync(file, 'utf8');
    const title = /^title: "(.)/m.exec(text)![1]!;
    const changed = text.replace(/^title: "./m, `title: "${title === 'Q' ? 'R' : 'Q'}`);
    expect(changed.length).toBe(text.length);
    fs.writeFileSync(file, changed);
    setMtimeNs(file, stat.mtimeNs);
    expect(fs.statSync(file, { bigint: true }).mtimeNs).toBe(stat.mtimeNs);
    expect((await writeIndex({ cwd: root })).written).toBe(true);
    expect(indexBytes(root)).toContain(`"title":"${title === 'Q' ? 'R' : 'Q'}`);
  });

  /** Rewrites the cache's stat table (its delta folded in) so that `file`'s current stat claims the blob it had before, then dates the cache. */
  function forgeStat(root: string, rel: string, cacheMtimeNs: bigint): void {
    const stats = JSON.parse(fs.readFileSync(path.join(root, STATS), 'utf8')) as { files: Record<string, [string, string]> };
    if (fs.existsSync(path.join(root, STATS_DELTA))) {
      Object.assign(stats.files, (JSON.parse(fs.readFileSync(path.join(root, STATS_DELTA), 'utf8')) as { files: Record<string, [string, string]> }).files);
      fs.rmSync(path.join(root, STATS_DELTA));
    }
    stats.files[rel] = [stats.files[rel]![0], statIdentity(fs.statSync(path.join(root, rel), { bigint: true }))];
    fs.writeFileSync(path.join(root, STATS), JSON.stringify(stats));
    setMtimeNs(path.join(root, META), cacheMtimeNs);
  }

  async function editedUnderForgedStat(cacheMtimeNs: (fileMtimeNs: bigint) => bigint): Promise<{ root: string; lint: string }> {
    const root = await seededRepo(5, 4);
    await lint({ cwd: root, now: NOW });
    const rel = lessonFiles(root).find((file) => file.startsWith('lessons/cases/'))!;
    const full = path.join(root, rel);
    fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(/^status: .*$/m, 'status: nonsense'));
    forgeStat(root, rel, cacheMtimeNs(fs.statSync(full, { bigint: true }).mtimeNs));
    return { root, lint: JSON.stringify(await lint({ cwd: root, now: NOW })) };
  }

  it('hashes a file changed within the same clock tick as the cache write (racy-git), and trusts an older one by its stat', async () => {
    // The control: a stat table that vouches for the old content, written a nanosecond after the file's mtime, is believed.
    const trusted = await editedUnderForgedStat((mtimeNs) => mtimeNs + 1n);
    expect(trusted.lint).not.toContain('status must be one of');
    // The same table dated to the file's own tick: the file is hashed, and its new content linted.
    const racy = await editedUnderForgedStat((mtimeNs) => mtimeNs);
    expect(racy.lint).toContain('status must be one of');
  });

  it('writes the stats a run changed as a delta over the base table, and believes a delta only over the base it names', async () => {
    /** An edited lesson whose stat a delta claims for the blob it had before (as a delta over `base`), with the cache dated after the edit. */
    async function underForgedDelta(base: (id: string) => string): Promise<string> {
      const root = await seededRepo(5, 12);
      await lint({ cwd: root, now: NOW });
      const rel = lessonFiles(root).find((file) => file.startsWith('lessons/cases/'))!;
      const full = path.join(root, rel);
      fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(/^status: .*$/m, 'status: nonsense'));
      const table = JSON.parse(fs.readFileSync(path.join(root, STATS), 'utf8')) as { key: string; id: string; files: Record<string, [string, string]> };
      const stat = fs.statSync(full, { bigint: true });
      fs.writeFileSync(path.join(root, STATS_DELTA), JSON.stringify({ key: table.key, base: base(table.id), files: { [rel]: [table.files[rel]![0], statIdentity(stat)] } }));
      setMtimeNs(path.join(root, META), stat.mtimeNs + 1n);
      return JSON.stringify(await lint({ cwd: root, now: NOW }));
    }
    // The control: a delta over this base is read (and here believed: the old content's findings).
    expect(await underForgedDelta((id) => id)).not.toContain('status must be one of');
    expect(await underForgedDelta(() => 'another')).toContain('status must be one of');

    // One edited file: the next run writes a delta of its entry, and the base stays as it was.
    const root = await seededRepo(30, 13);
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const rel of [...lessonFiles(root), 'lessons/index.json']) fs.utimesSync(path.join(root, rel), minuteAgo, minuteAgo);
    await writeIndex({ cwd: root });
    const base = fs.readFileSync(path.join(root, STATS), 'utf8');
    const rel = lessonFiles(root).find((file) => file.startsWith('lessons/cases/'))!;
    fs.writeFileSync(path.join(root, rel), fs.readFileSync(path.join(root, rel), 'utf8').replace(/^title: .*$/m, 'title: "Retitled"'));
    fs.utimesSync(path.join(root, rel), minuteAgo, minuteAgo);
    expect((await writeIndex({ cwd: root })).written).toBe(true);
    expect(fs.readFileSync(path.join(root, STATS), 'utf8')).toBe(base);
    const delta = JSON.parse(fs.readFileSync(path.join(root, STATS_DELTA), 'utf8')) as { base: string; files: Record<string, [string, string]> };
    expect(delta.base).toBe((JSON.parse(base) as { id: string }).id);
    expect(Object.keys(delta.files)).toContain(rel);
    // And the run after it trusts the edited file by its stat in the delta: no lesson is opened.
    const opened = vi.spyOn(fs, 'openSync');
    try {
      expect((await writeIndex({ cwd: root })).written).toBe(false);
      expect((await checkIndex({ cwd: root })).fresh).toBe(true);
      expect(opened.mock.calls.map(([file]) => String(file)).filter((file) => file.endsWith('.md'))).toEqual([]);
    } finally {
      opened.mockRestore();
    }
  });

  it('writes the base stat table again, and no delta, once the run changed more than a delta may hold', async () => {
    const root = await seededRepo(300, 14);
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const rel of lessonFiles(root)) fs.utimesSync(path.join(root, rel), minuteAgo, minuteAgo);
    await writeIndex({ cwd: root });
    const edited = lessonFiles(root)[0]!;
    fs.appendFileSync(path.join(root, edited), '\nOne more line.\n');
    fs.utimesSync(path.join(root, edited), minuteAgo, minuteAgo);
    await writeIndex({ cwd: root });
    expect(fs.existsSync(path.join(root, STATS_DELTA))).toBe(true);
    const before = JSON.parse(fs.readFileSync(path.join(root, STATS), 'utf8')) as { id: string };
    // Every file's stat changes (its mtime), its content does not: 300 entries, past the delta's 256.
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    for (const rel of lessonFiles(root)) fs.utimesSync(path.join(root, rel), twoMinutesAgo, twoMinutesAgo);
    expect((await writeIndex({ cwd: root })).written).toBe(false);
    expect((JSON.parse(fs.readFileSync(path.join(root, STATS), 'utf8')) as { id: string }).id).not.toBe(before.id);
    expect(fs.existsSync(path.join(root, STATS_DELTA))).toBe(false);
  });

  it("keeps, in a shard a run rewrites, the entries of the files it did not use while they exist, and drops a deleted file's", async () => {
    const root = await seededRepo(300, 29);
    await writeIndex({ cwd: root });
    const dir = path.join(root, FILE_CACHE_DIR);
    const entriesOf = (file: string): { path: string; blob: string }[] =>
      fs.readFileSync(path.join(dir, file), 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line) as { path: string; blob: string });
    const shard = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl')).find((name) => entriesOf(name).length >= 3)!;
    const [a, b, c] = entriesOf(shard) as [{ path: string; blob: string }, { path: string; blob: string }, { path: string; blob: string }];
    // A run that uses one file of the shard and records a new version of it (as the guard does for a changed lesson).
    const cache = openLessonCache(root);
    const facts = cache.get(a.path, a.blob)!;
    expect(facts).toBeDefined();
    cache.set(a.path, '1'.repeat(40), facts);
    fs.rmSync(path.join(root, c.path));
    await cache.save();
    const after = entriesOf(shard).map((entry) => `${entry.path} ${entry.blob}`);
    expect(after).toContain(`${a.path} ${a.blob}`);
    expect(after).toContain(`${a.path} ${'1'.repeat(40)}`);
    expect(after).toContain(`${b.path} ${b.blob}`);
    expect(after.some((entry) => entry.startsWith(`${c.path} `))).toBe(false);
  });

  it('parses a shard line only when its file is asked for: a line whose facts do not parse costs that file alone, and lines not asked for are written back as they were', async () => {
    const root = await seededRepo(300, 37);
    await writeIndex({ cwd: root });
    const dir = path.join(root, FILE_CACHE_DIR);
    const linesOf = (file: string): string[] => fs.readFileSync(path.join(dir, file), 'utf8').trim().split('\n').slice(1);
    const shard = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl')).find((name) => linesOf(name).length >= 3)!;
    const [first, second, third] = linesOf(shard).map((line) => JSON.parse(line) as { path: string; blob: string; facts: unknown }) as [
      { path: string; blob: string; facts: unknown },
      { path: string; blob: string; facts: unknown },
      { path: string; blob: string; facts: unknown },
    ];
    // The first line's facts broken, its path, blob and braces intact.
    const broken = linesOf(shard)[0]!.replace(',"facts":{', ',"facts":{,');
    const header = fs.readFileSync(path.join(dir, shard), 'utf8').split('\n')[0]!;
    fs.writeFileSync(path.join(dir, shard), `${[header, broken, ...linesOf(shard).slice(1)].join('\n')}\n`);
    const untouched = linesOf(shard).slice(1);
    const cache = openLessonCache(root);
    expect(cache.get(first.path, first.blob)).toBeUndefined();
    expect(cache.get(second.path, second.blob)).toEqual(second.facts);
    cache.set(first.path, first.blob, first.facts as never);
    await cache.save();
    const after = linesOf(shard);
    expect(after).toContain(JSON.stringify(first));
    for (const line of untouched) expect(after).toContain(line);
    expect(openLessonCache(root).get(third.path, third.blob)).toEqual(third.facts);
  });

  it('reads the remembered index from the open file, and refuses it once it is written in place while read', async () => {
    const root = await seededRepo(30, 43);
    await writeIndex({ cwd: root });
    const file = path.join(root, 'lessons/index.json');
    const blob = git(root, 'hash-object', 'lessons/index.json').trim();
    expect(openIndexIf(root, openLessonCache(root), '0'.repeat(40))).toBeUndefined();
    const opened = openIndexIf(root, openLessonCache(root), blob)!;
    try {
      expect(opened.bytes.window(0, 20).toString()).toBe(fs.readFileSync(file, 'utf8').slice(0, 20));
      fs.appendFileSync(file, ' ');
      expect(() => opened.bytes.window(0, 20)).toThrow(/changed while it was read/);
    } finally {
      opened.close();
    }
  });

  it('keeps, of a path with two versions cached and a third set, the one set: listing the older ones (as the index scan does) does not evict it', async () => {
    const root = await seededRepo(40, 31);
    await writeIndex({ cwd: root });
    const rel = 'lessons/index.json';
    const blobs = ['3'.repeat(40), '1'.repeat(40), '2'.repeat(40)];
    const facts = { problems: [] };
    // Two versions of the file, scanned by earlier runs.
    const earlier = openLessonCache(root);
    earlier.set(rel, blobs[1]!, facts);
    earlier.set(rel, blobs[2]!, facts);
    await earlier.save();
    // A run lists them (to rescan only what changed), then records the version it scanned; its blob sorts after both.
    const run = openLessonCache(root);
    expect(run.versions(rel).map((version) => version.blob).sort()).toEqual([blobs[1], blobs[2]]);
    run.set(rel, blobs[0]!, facts);
    await run.save();
    const next = openLessonCache(root);
    expect(next.get(rel, blobs[0]!)).toEqual(facts);
    expect(next.versions(rel)).toHaveLength(2);
  });

  it('notes a stat as a delta without parsing the base stat table (its head gives its id and size); an older base without its size is parsed', async () => {
    const root = await seededRepo(40, 23);
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const rel of lessonFiles(root)) fs.utimesSync(path.join(root, rel), minuteAgo, minuteAgo);
    await writeIndex({ cwd: root });
    const base = fs.readFileSync(path.join(root, STATS), 'utf8');
    expect(base).toMatch(/^\{"key":"[0-9a-f]+","id":"[0-9a-f]+","size":40,"files":/);
    const rel = lessonFiles(root)[3]!;
    const noteOne = async (): Promise<string[]> => {
      const cache = openLessonCache(root);
      cache.noteStat(rel, '1'.repeat(40), statMark(fs.statSync(path.join(root, rel), { bigint: true })));
      const parsed = vi.spyOn(JSON, 'parse');
      try {
        await cache.save();
        return parsed.mock.calls.map(([text]) => String(text));
      } finally {
        parsed.mockRestore();
      }
    };
    expect(await noteOne()).not.toContain(base);
    expect(fs.readFileSync(path.join(root, STATS), 'utf8')).toBe(base);
    const delta = JSON.parse(fs.readFileSync(path.join(root, STATS_DELTA), 'utf8')) as { base: string; files: Record<string, [string, string]> };
    expect(delta.base).toBe((JSON.parse(base) as { id: string }).id);
    expect(delta.files[rel]![0]).toBe('1'.repeat(40));
    // The control: the same table without its size in the head is parsed, and the delta is the same.
    const older = base.replace(/"size":40,/, '');
    fs.writeFileSync(path.join(root, STATS), older);
    fs.rmSync(path.join(root, STATS_DELTA));
    expect(await noteOne()).toContain(older);
    expect((JSON.parse(fs.readFileSync(path.join(root, STATS_DELTA), 'utf8')) as { files: Record<string, [string, string]> }).files[rel]![0]).toBe('1'.repeat(40));
  });

  it("keeps lessons/index.json's stat in meta.json: knowing the index needs no stat table, and a written index is not hashed again", async () => {
    const root = await seededRepo(12, 21);
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const rel of lessonFiles(root)) fs.utimesSync(path.join(root, rel), minuteAgo, minuteAgo);
    await writeIndex({ cwd: root });
    fs.utimesSync(path.join(root, 'lessons/index.json'), minuteAgo, minuteAgo);
    await writeIndex({ cwd: root });
    const meta = JSON.parse(fs.readFileSync(path.join(root, META), 'utf8')) as { pins?: Record<string, [string, string]> };
    expect(Object.keys(meta.pins ?? {})).toEqual(['lessons/index.json']);
    expect(meta.pins!['lessons/index.json']![0]).toBe(git(root, 'hash-object', 'lessons/index.json').trim());
    const stats = JSON.parse(fs.readFileSync(path.join(root, STATS), 'utf8')) as { files: Record<string, unknown> };
    expect(Object.keys(stats.files)).not.toContain('lessons/index.json');
    // Without the stat table every lesson is read again, but the index is known by its pinned stat.
    fs.rmSync(path.join(root, STATS));
    fs.rmSync(path.join(root, STATS_DELTA), { force: true });
    const opened = vi.spyOn(fs, 'openSync');
    try {
      expect((await checkIndex({ cwd: root })).fresh).toBe(true);
      const files = opened.mock.calls.map(([file]) => String(file));
      expect(files.filter((file) => file.endsWith('.md')).length).toBe(lessonFiles(root).length);
      expect(files.filter((file) => file.endsWith('index.json'))).toEqual([]);
    } finally {
      opened.mockRestore();
    }
    // The control: a pin of another blob is not believed, and the index is read.
    const forged = JSON.parse(fs.readFileSync(path.join(root, META), 'utf8')) as { pins: Record<string, [string, string]> };
    forged.pins['lessons/index.json']![0] = '0'.repeat(40);
    const metaStat = fs.statSync(path.join(root, META));
    fs.writeFileSync(path.join(root, META), JSON.stringify(forged));
    fs.utimesSync(path.join(root, META), metaStat.atime, metaStat.mtime);
    const reopened = vi.spyOn(fs, 'openSync');
    try {
      expect((await checkIndex({ cwd: root })).fresh).toBe(true);
      expect(reopened.mock.calls.map(([file]) => String(file)).filter((file) => file.endsWith('index.json')).length).toBeGreaterThan(0);
    } finally {
      reopened.mockRestore();
    }
  });

  it('ignores a cache written in the future (clock skew) and a file with an mtime from the future', async () => {
    const skewed = await editedUnderForgedStat(() => BigInt(Date.now() + 3_600_000) * 1_000_000n);
    expect(skewed.lint).toContain('status must be one of');
    // The cache rewritten by that run is dated now again, and the lesson's summary is right.
    expect(fs.statSync(path.join(skewed.root, META)).mtimeMs).toBeLessThan(Date.now() + 1_000);

    const root = await seededRepo(5, 6);
    const rel = lessonFiles(root).find((file) => file.startsWith('lessons/cases/'))!;
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(path.join(root, rel), future, future);
    await lint({ cwd: root, now: NOW });
    fs.writeFileSync(path.join(root, rel), fs.readFileSync(path.join(root, rel), 'utf8').replace(/^status: .*$/m, 'status: nonsense'));
    fs.utimesSync(path.join(root, rel), future, future);
    forgeStat(root, rel, BigInt(Date.now()) * 1_000_000n);
    expect(JSON.stringify(await lint({ cwd: root, now: NOW }))).toContain('status must be one of');
  });

  /** A stat delta that would vouch for every file as empty (the blob of no bytes) with its stat as recorded, for a base that is not the one on disk. */
  function otherBaseDelta(dir: string): string {
    const base = JSON.parse(fs.readFileSync(path.join(dir, 'stats.json'), 'utf8')) as { key: string; files: Record<string, [string, string]> };
    const files = Object.fromEntries(Object.entries(base.files).map(([rel, [, identity]]) => [rel, ['e69de29bb2d1d6434b8b29ae775ad8c2d48c5391', identity]]));
    return JSON.stringify({ key: base.key, base: 'another', files });
  }

  it('ignores a corrupt, truncated or foreign cache without an error, and writes a sound one', async () => {
    const root = await seededRepo(40, 8);
    const before = indexBytes(root);
    const expected = await coldOutputs(root);
    setIndexBytes(root, before);
    await outputs(root);
    setIndexBytes(root, before);
    const dir = path.join(root, FILE_CACHE_DIR);
    const shards = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
    const corruptions: [string, () => void][] = [
      ['meta is not JSON', () => fs.writeFileSync(path.join(dir, 'meta.json'), '{ broken')],
      ['the stat table is not JSON', () => fs.writeFileSync(path.join(dir, 'stats.json'), '{ broken')],
      ['the stat table of another version', () => fs.writeFileSync(path.join(dir, 'stats.json'), fs.readFileSync(path.join(dir, 'stats.json'), 'utf8').replace(/"key":"[0-9a-f]+"/, '"key":"other"'))],
      ['the stat delta is not JSON', () => fs.writeFileSync(path.join(dir, 'stats-delta.json'), '{ broken')],
      ['the stat delta names another base', () => fs.writeFileSync(path.join(dir, 'stats-delta.json'), otherBaseDelta(dir))],
      ['a shard is cut short', () => fs.writeFileSync(path.join(dir, shards[0]!), fs.readFileSync(path.join(dir, shards[0]!), 'utf8').slice(0, 200))],
      ['a shard is garbage', () => fs.writeFileSync(path.join(dir, shards[1]!), 'not json\n{"path":1}\n')],
      ['a shard of another version', () => fs.writeFileSync(path.join(dir, shards[2]!), fs.readFileSync(path.join(dir, shards[2]!), 'utf8').replace(/"key":"[0-9a-f]+"/, '"key":"other"'))],
      ['meta of another version', () => fs.writeFileSync(path.join(dir, 'meta.json'), fs.readFileSync(path.join(dir, 'meta.json'), 'utf8').replace(/"key":"[0-9a-f]+"/, '"key":"other"'))],
      ['the cache folder is a file', () => {
        fs.rmSync(dir, { recursive: true });
        fs.writeFileSync(dir, 'x');
      }],
    ];
    for (const [what, corrupt] of corruptions) {
      corrupt();
      expect({ what, ...(await outputs(root)) }).toEqual({ what, ...expected });
      setIndexBytes(root, before);
      if (fs.statSync(dir).isFile()) fs.rmSync(dir);
    }
    await outputs(root);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')).format).toBe(2);
    expect((await checkIndex({ cwd: root })).fresh).toBe(true);
  });

  it('opens no lesson for lessons index and index --check when nothing changed, and only the changed one after an edit', async () => {
    const root = await seededRepo(30, 9);
    // Files changed in the last seconds are hashed again by the next run (racily clean): these were written a minute ago.
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const rel of [...lessonFiles(root), 'lessons/index.json']) fs.utimesSync(path.join(root, rel), minuteAgo, minuteAgo);
    await writeIndex({ cwd: root });
    const opened = vi.spyOn(fs, 'openSync');
    const readLessons = (): string[] => opened.mock.calls.map(([file]) => String(file)).filter((file) => file.endsWith('.md'));
    try {
      expect(await writeIndex({ cwd: root })).toEqual({ path: 'lessons/index.json', lessons: 30, written: false });
      expect((await checkIndex({ cwd: root })).fresh).toBe(true);
      expect(readLessons()).toEqual([]);
      const rel = lessonFiles(root)[3]!;
      fs.appendFileSync(path.join(root, rel), '\nOne more line.\n');
      expect((await writeIndex({ cwd: root })).written).toBe(false);
      expect(readLessons()).toEqual([path.join(root, rel)]);
      // Changed a moment ago, so hashed again by the next run; the others are not.
      expect((await writeIndex({ cwd: root })).written).toBe(false);
      expect(readLessons()).toEqual([path.join(root, rel), path.join(root, rel)]);
    } finally {
      opened.mockRestore();
    }
  });

  it('keeps the cache in the git-ignored state folder, and neither reads nor writes one linked outside the repository', async () => {
    const root = tempDir();
    await generateRepo(root, 5, 2);
    initGitRepo(root);
    await lint({ cwd: root, now: NOW });
    expect(fs.readFileSync(path.join(root, '.lessons/.gitignore'), 'utf8')).toBe('*\n');
    expect(git(root, 'status', '--porcelain', '--untracked-files=all')).not.toContain('.lessons');

    const linked = await seededRepo(5, 2);
    const elsewhere = tempDir();
    fs.rmSync(path.join(linked, '.lessons'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(linked, '.lessons'));
    const expected = JSON.stringify(await lint({ cwd: root, now: NOW }));
    expect(JSON.stringify(await lint({ cwd: linked, now: NOW }))).toBe(expected);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });
});
