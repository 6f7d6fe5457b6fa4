import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LISTING_MEMO, listWorktree, listingPairs, openLessonCache, treeDigest, unchangedWorktree } from '../../src/store/worktree.js';
import { RACY_MS } from '../../src/store/file-cache.js';
import { startGitListing } from '../../src/io/git/vouched.js';
import { checkIndex, writeIndex } from '../../src/store/index-write.js';
import { INDEX_TREE_DELTA, INDEX_TREE_FILE, rememberedPairs } from '../../src/store/index-memo.js';
import { storeDrafts } from '../../src/capture/store.js';
import { lint } from '../../src/lint/lint-repository.js';
import { gitBlobId } from '../../src/util/digest.js';
import { lessonFile } from '../helpers/lessons.js';
import { pick, seededRandom } from '../helpers/random.js';
import { git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

/**
 * A working tree that git vouched for whole is remembered by the stat of its level folders and
 * of git's index (LISTING_MEMO); while they stay as they were and git's diff-files finds every
 * tracked lesson as its index holds it, the next run takes the remembered tree's digest without
 * listing a folder. What must hold: the digest it takes is always the digest of what is on disk.
 */

vi.mock('../../src/store/worktree.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/store/worktree.js')>();
  return { ...original, listWorktree: vi.fn(original.listWorktree) };
});

/** How many times the working tree was listed since the last call. */
function listings(): number {
  const count = vi.mocked(listWorktree).mock.calls.length;
  vi.mocked(listWorktree).mockClear();
  return count;
}

const FOLDERS = ['lessons/cases/', 'lessons/patterns/', 'lessons/principles/'];

function caseFile(n: number): Record<string, string> {
  return lessonFile({ id: `case-2026-01-${String(n).padStart(2, '0')}-thing-${n}`, level: 'case', title: `Thing ${n} broke` });
}

function committedRepo(): { root: string; files: string[] } {
  const root = initGitRepo(tempDir());
  fs.cpSync(tempLessonsRepo(), root, { recursive: true });
  const lessons: Record<string, string> = {};
  for (let n = 1; n <= 6; n++) Object.assign(lessons, caseFile(n));
  writeFiles(root, lessons);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'lessons');
  return { root, files: Object.keys(lessons).sort() };
}

/** A committed repository, indexed, whose listing through git is remembered. */
async function rememberedRepo(): Promise<{ root: string; files: string[] }> {
  const repo = committedRepo();
  await writeIndex({ cwd: repo.root });
  await settle();
  await listThroughGit(repo.root);
  return repo;
}

/** lessons/index.json as a build from scratch writes it for a copy of `root` (no cache, no index). */
async function indexFromScratch(root: string): Promise<string> {
  const scratch = tempDir();
  fs.cpSync(root, scratch, { recursive: true });
  fs.rmSync(path.join(scratch, '.lessons'), { recursive: true, force: true });
  fs.rmSync(path.join(scratch, 'lessons/index.json'), { force: true });
  await writeIndex({ cwd: scratch });
  return fs.readFileSync(path.join(scratch, 'lessons/index.json'), 'utf8');
}

/** Waits until what changed last is older than the racy window. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
}

/** A listing through git (as at 2,000 lessons and more), saved as a run saves it. */
async function listThroughGit(root: string): Promise<{ digest: string | undefined; remembered: boolean }> {
  const cache = openLessonCache(root);
  const listing = await listWorktree(root, cache, 0);
  const pairs = listingPairs(root, cache, listing);
  await cache.save();
  return { digest: pairs && treeDigest(pairs), remembered: listing.remember !== undefined };
}

/** The digest of the lesson files on disk, each hashed. */
function diskDigest(root: string): string {
  const pairs = FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => ({ path: `${folder}${name}`, blob: gitBlobId(fs.readFileSync(path.join(root, folder, name))) })),
  );
  return treeDigest(pairs);
}

async function quickDigest(root: string): Promise<string | undefined> {
  return (await unchangedWorktree(root, openLessonCache(root))).tree?.digest;
}

describe('the working tree as remembered', () => {
  it('is taken while nothing changed, and refused after each kind of change', async () => {
    const names = ['same', 'edited', 'added', 'deleted', 'unstaged from git', 'staged', 'assume-unchanged', 'index file'] as const;
    const repos = new Map(names.map((name) => [name, committedRepo()]));
    await settle();
    for (const [name, { root }] of repos) {
      const listed = await listThroughGit(root);
      expect(listed.remembered, name).toBe(true);
      expect(listed.digest).toBe(diskDigest(root));
      expect(await quickDigest(root), name).toBe(listed.digest);
    }
    const at = (name: (typeof names)[number]): { root: string; file: string } => ({ root: repos.get(name)!.root, file: path.join(repos.get(name)!.root, repos.get(name)!.files[1]!) });
    fs.appendFileSync(at('edited').file, '\nEdited.\n');
    writeFiles(at('added').root, caseFile(9));
    fs.rmSync(at('deleted').file);
    git(at('unstaged from git').root, 'rm', '-q', '--cached', repos.get('unstaged from git')!.files[1]!);
    fs.appendFileSync(at('staged').file, '\nStaged.\n');
    git(at('staged').root, 'add', '-A');
    git(at('assume-unchanged').root, 'update-index', '--assume-unchanged', repos.get('assume-unchanged')!.files[1]!);
    fs.appendFileSync(at('assume-unchanged').file, '\nEdited where git no longer looks.\n');
    fs.writeFileSync(path.join(at('index file').root, 'lessons/index.json'), '{}\n');

    expect(await quickDigest(at('same').root)).toBe(diskDigest(at('same').root));
    for (const name of ['edited', 'added', 'deleted', 'unstaged from git', 'staged', 'assume-unchanged'] as const) {
      expect(await quickDigest(at(name).root), name).toBeUndefined();
    }
    // The tree is unchanged but the index file is not: the index is rebuilt.
    const root = at('index file').root;
    expect(await quickDigest(root)).toBe(diskDigest(root));
    expect((await writeIndex({ cwd: root })).written).toBe(true);
  }, 60_000);

  it('is not remembered when a folder or the git index changed within the racy window; a file changed within it is read again', async () => {
    const recent = committedRepo();
    expect((await listThroughGit(recent.root)).remembered).toBe(false);
    expect(openLessonCache(recent.root).memo(LISTING_MEMO)).toBeUndefined();
    expect(await quickDigest(recent.root)).toBeUndefined();

    // A file edited within the window is remembered as one to read again.
    const edited = committedRepo();
    await settle();
    const file = path.join(edited.root, edited.files[0]!);
    fs.appendFileSync(file, '\nEdited just now.\n');
    expect((await listThroughGit(edited.root)).remembered).toBe(true);
    expect(JSON.parse(openLessonCache(edited.root).memo(LISTING_MEMO)!).loose).toEqual([[edited.files[0], gitBlobId(fs.readFileSync(file)), 'racy']]);
    expect(await quickDigest(edited.root)).toBe(diskDigest(edited.root));
    // Rewritten with the same size and mtime: read again, the edit is seen.
    const before = fs.statSync(file);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Edited just now', 'Edited JUST now'));
    fs.utimesSync(file, before.atime, before.mtime);
    const quick = await unchangedWorktree(edited.root, openLessonCache(edited.root));
    expect(quick.tree).toBeUndefined();
    expect(quick.edit?.files.map((each) => each.path)).toEqual([edited.files[0]]);
  }, 30_000);

  it('remembers the files git does not vouch for (edited, untracked) by their stat, and refuses the tree when one changes', async () => {
    const repos = [committedRepo(), committedRepo(), committedRepo()];
    for (const { root, files } of repos) {
      fs.appendFileSync(path.join(root, files[0]!), '\nEdited, not staged.\n');
      writeFiles(root, caseFile(9));
    }
    await settle();
    for (const { root } of repos) {
      expect((await listThroughGit(root)).digest).toBe(diskDigest(root));
      expect(await quickDigest(root)).toBe(diskDigest(root));
    }
    const [same, editedAgain, untrackedEdited] = repos as [(typeof repos)[0], (typeof repos)[0], (typeof repos)[0]];
    fs.appendFileSync(path.join(editedAgain.root, editedAgain.files[0]!), '\nEdited again.\n');
    fs.appendFileSync(path.join(untrackedEdited.root, Object.keys(caseFile(9))[0]!), '\nThe new lesson, edited.\n');
    expect(await quickDigest(same.root)).toBe(diskDigest(same.root));
    expect(await quickDigest(editedAgain.root)).toBeUndefined();
    expect(await quickDigest(untrackedEdited.root)).toBeUndefined();
  }, 30_000);

  it('gives the digest of the files on disk through random edits, additions, deletions, stagings and commits', async () => {
    const { root } = committedRepo();
    const random = seededRandom(29);
    const cases = (): string[] => fs.readdirSync(path.join(root, 'lessons/cases')).map((name) => `lessons/cases/${name}`);
    let added = 10;
    let taken = 0;
    for (let round = 0; round < 8; round++) {
      await settle();
      await listThroughGit(root);
      const kind = pick(random, ['nothing', 'nothing', 'append', 'append again', 'delete', 'add', 'stage', 'commit']);
      const full = path.join(root, pick(random, cases()));
      if (kind === 'append') fs.appendFileSync(full, `\nRound ${round}.\n`);
      else if (kind === 'append again') fs.appendFileSync(path.join(root, cases().at(-1)!), `\nRound ${round}.\n`);
      else if (kind === 'delete') fs.rmSync(full);
      else if (kind === 'add') writeFiles(root, caseFile(added++));
      else if (kind === 'stage' || kind === 'commit') {
        fs.appendFileSync(full, `\nRound ${round}.\n`);
        git(root, 'add', '-A');
        if (kind === 'commit') git(root, 'commit', '-qm', `round ${round}`);
      }
      const quick = await quickDigest(root);
      if (quick !== undefined) taken++;
      if (quick !== undefined) expect(quick, `round ${round}: ${kind}`).toBe(diskDigest(root));
      if (kind !== 'nothing') expect(quick, `round ${round}: ${kind}`).toBeUndefined();
    }
    expect(taken).toBeGreaterThan(0);
  }, 60_000);

  it('keeps `lessons index` exact: an unchanged tree is not rewritten, an edited one is indexed as from scratch', async () => {
    const { root, files } = committedRepo();
    await writeIndex({ cwd: root });
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'index');
    await settle();
    await listThroughGit(root);
    expect(openLessonCache(root).memo(LISTING_MEMO)).toBeDefined();
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: false, lessons: 6 });
    expect((await checkIndex({ cwd: root })).fresh).toBe(true);
    // Saved again with the bytes it had: nothing to index, no folder listed, and remembered so.
    const same = path.join(root, files[4]!);
    fs.writeFileSync(same, fs.readFileSync(same));
    expect((await unchangedWorktree(root, openLessonCache(root))).edit?.files.map((each) => each.path)).toEqual([files[4]]);
    listings();
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: false, lessons: 6 });
    expect(listings()).toBe(0);
    expect((await unchangedWorktree(root, openLessonCache(root))).tree).toBeDefined();
    const file = path.join(root, files[2]!);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Thing 3 broke', 'Thing 3 broke again'));
    expect((await checkIndex({ cwd: root })).diff.changed).toHaveLength(1);
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: true, lessons: 6 });
    const incremental = fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8');
    expect(incremental).toContain('Thing 3 broke again');
    expect(incremental).toBe(await indexFromScratch(root));
  }, 30_000);

  it('takes a tree whose lessons were saved by renaming a new file over them, and refuses one with a name added, removed or turned into a link', async () => {
    const { root, files } = await rememberedRepo();
    const identity = (): string => JSON.parse(openLessonCache(root).memo(LISTING_MEMO)!).identity as string;
    const before = identity();
    /** Written as many editors save: a new file renamed over the old one, which moves the folder's stat. */
    const saveByRename = (file: string, text: string): void => {
      fs.writeFileSync(`${path.join(root, file)}.swp`, text);
      fs.renameSync(`${path.join(root, file)}.swp`, path.join(root, file));
    };
    const original = fs.readFileSync(path.join(root, files[2]!), 'utf8');
    saveByRename(files[2]!, original.replace(/^title: .*$/m, 'title: Saved by rename'));
    expect((await unchangedWorktree(root, openLessonCache(root))).edit?.files.map((each) => each.path)).toEqual([files[2]]);
    listings();
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: true, lessons: 6 });
    expect(listings(), 'no folder listed').toBe(0);
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toBe(await indexFromScratch(root));
    // Within the racy window the folder's new stat is not remembered; past it, it is, and stands for the names.
    expect(identity()).toBe(before);
    await settle();
    saveByRename(files[3]!, fs.readFileSync(path.join(root, files[3]!), 'utf8'));
    await settle();
    listings();
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: false, lessons: 6 });
    expect(listings(), 'no folder listed').toBe(0);
    expect(identity()).not.toBe(before);
    expect(await quickDigest(root)).toBe(diskDigest(root));

    const changes: [string, () => void][] = [
      ['a lesson added by rename', () => saveByRename(Object.keys(caseFile(8))[0]!, Object.values(caseFile(8))[0]!)],
      ['a lesson removed', () => fs.rmSync(path.join(root, files[5]!))],
    ];
    for (const [name, change] of changes) {
      await settle();
      await writeIndex({ cwd: root });
      change();
      expect(await unchangedWorktree(root, openLessonCache(root)), name).toEqual({ started: expect.anything() });
      listings();
      await writeIndex({ cwd: root });
      expect(listings(), name).toBe(1);
      expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8'), name).toBe(await indexFromScratch(root));
    }
    // The same name, now a link: the folder's names are not all regular files.
    await settle();
    await writeIndex({ cwd: root });
    const linked = path.join(root, files[4]!);
    fs.renameSync(linked, path.join(root, 'moved.md'));
    fs.symlinkSync(path.join(root, 'moved.md'), linked);
    expect(await unchangedWorktree(root, openLessonCache(root))).toEqual({ started: expect.anything() });
  }, 60_000);

  it('remembers a listing made while a folder\'s stat is too recent to vouch, and reads that folder\'s names again', async () => {
    const { root, files } = await rememberedRepo();
    const cases = path.join(root, 'lessons/cases');
    // A save by rename just now: the folder's stat is racy when the tree is listed.
    fs.writeFileSync(`${path.join(root, files[1]!)}.swp`, fs.readFileSync(path.join(root, files[1]!), 'utf8').replace(/^title: .*$/m, 'title: Renamed just now'));
    fs.renameSync(`${path.join(root, files[1]!)}.swp`, path.join(root, files[1]!));
    expect(Date.now() - fs.statSync(cases).mtimeMs).toBeLessThan(RACY_MS);
    expect((await listThroughGit(root)).remembered).toBe(true);
    expect(JSON.parse(openLessonCache(root).memo(LISTING_MEMO)!).identity).toContain('racy');
    expect(await quickDigest(root)).toBe(diskDigest(root));
    // A lesson added within the same window: the folder's stat may read as before, its names do not.
    writeFiles(root, caseFile(8));
    expect(await quickDigest(root)).toBeUndefined();
    expect((await unchangedWorktree(root, openLessonCache(root))).edit).toBeUndefined();
  }, 30_000);

  it('takes the tree a capture left, without listing the folders, when the capture created no file', async () => {
    const { root, files } = await rememberedRepo();
    const now = new Date('2026-06-01T12:00:00Z');
    const titleOf = (file: string): string => /^title: (.*)$/m.exec(fs.readFileSync(path.join(root, file), 'utf8'))![1]!;
    // A recurrence: the lesson it matches is bumped, rewritten by rename.
    expect((await storeDrafts({ cwd: root, drafts: [{ title: titleOf(files[1]!), tags: [], body: '' }], now }))[0]).toMatchObject({ action: 'bumped' });
    listings();
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: false, lessons: 6 });
    expect(listings(), 'no folder listed after a bump').toBe(0);
    const file = path.join(root, files[2]!);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Edited after the capture'));
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: true, lessons: 6 });
    expect(listings(), 'no folder listed for the edit after it').toBe(0);
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toBe(await indexFromScratch(root));

    // A new lesson changes the folders' names: they are listed once.
    await settle();
    await writeIndex({ cwd: root });
    expect((await storeDrafts({ cwd: root, drafts: [{ title: 'Nothing like the others happened here', tags: [], body: '' }], now }))[0]).toMatchObject({ action: 'created' });
    listings();
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: false, lessons: 7 });
    expect(listings(), 'listed after a created lesson').toBe(1);
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toBe(await indexFromScratch(root));
  }, 60_000);

  it('indexes a few edited files as an edit of the remembered tree, byte for byte as from scratch', async () => {
    const { root, files } = await rememberedRepo();
    const random = seededRandom(41);
    for (let round = 0; round < 5; round++) {
      const file = path.join(root, pick(random, files));
      const text = fs.readFileSync(file, 'utf8');
      const kind = pick(random, ['title', 'body', 'both']);
      let edited = kind === 'body' ? text : text.replace(/^title: .*$/m, `title: Retitled in round ${round}`);
      if (kind !== 'title') edited = edited.replace('## Mistake', `Round ${round}.\n\n## Mistake`);
      fs.writeFileSync(file, edited);
      // Every other round the edit is older than the racy window; else its file is remembered as one to read again.
      if (round % 2 === 0) await settle();
      const quick = await unchangedWorktree(root, openLessonCache(root));
      expect(quick.edit?.files.map((each) => each.path), `round ${round}`).toContain(path.relative(root, file));
      listings();
      const result = await writeIndex({ cwd: root });
      expect(listings(), `round ${round}: no folder listed`).toBe(0);
      expect(result.written, `round ${round}: ${kind}`).toBe(kind !== 'body');
      expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8'), `round ${round}: ${kind}`).toBe(await indexFromScratch(root));
      // The edit is remembered: the next run finds nothing changed.
      expect((await unchangedWorktree(root, openLessonCache(root))).tree, `round ${round}`).toBeDefined();
    }
  }, 60_000);

  it('lints a remembered tree, and a few files edited since, finding what a lint from scratch finds', async () => {
    const { root, files } = committedRepo();
    await settle();
    await listThroughGit(root);
    const now = new Date('2026-06-01T12:00:00Z');
    await lint({ cwd: root, now });
    const random = seededRandom(53);
    for (let round = 0; round < 6; round++) {
      const file = path.join(root, pick(random, files));
      const text = fs.readFileSync(file, 'utf8');
      // A broken status, a broken date, or a fixed one: findings come and go.
      const edits = [(t: string) => t.replace(/^status: .*$/m, 'status: nonsense'), (t: string) => t.replace(/^created_at: .*$/m, 'created_at: soon'), (t: string) => t.replace(/^status: .*$/m, 'status: candidate')];
      const edited = pick(random, edits)(text);
      fs.writeFileSync(file, edited);
      if (round % 2 === 0) await settle();
      // An edit that leaves the bytes as they were is no edit.
      const quick = await unchangedWorktree(root, openLessonCache(root));
      expect(edited === text ? quick.tree : quick.edit, `round ${round}`).toBeDefined();
      listings();
      const remembered = await lint({ cwd: root, now });
      expect(listings(), `round ${round}: no folder listed`).toBe(0);
      const scratch = tempDir();
      fs.cpSync(root, scratch, { recursive: true });
      fs.rmSync(path.join(scratch, '.lessons'), { recursive: true, force: true });
      const fresh = await lint({ cwd: scratch, now });
      expect(JSON.stringify(remembered).replaceAll(scratch, root), `round ${round}`).toBe(JSON.stringify(fresh).replaceAll(scratch, root));
      expect((await unchangedWorktree(root, openLessonCache(root))).tree, `round ${round}`).toBeDefined();
      // Nothing changed: the same findings again.
      expect(JSON.stringify(await lint({ cwd: root, now }))).toBe(JSON.stringify(remembered));
    }
  }, 60_000);

  it('lints through the remembered index\'s tree when the lint table is of an older one', async () => {
    const { root, files } = await rememberedRepo();
    const now = new Date('2026-06-01T12:00:00Z');
    await lint({ cwd: root, now });
    // A wrong date is lint's to report; the index takes the lesson as it is.
    const breakDate = (file: string): void => fs.writeFileSync(path.join(root, file), fs.readFileSync(path.join(root, file), 'utf8').replace(/^created_at: .*$/m, 'created_at: soon'));
    // The index follows one edit (the lint table stays at the tree before it), then another file is edited.
    breakDate(files[0]!);
    await writeIndex({ cwd: root });
    breakDate(files[3]!);
    const quick = await unchangedWorktree(root, openLessonCache(root));
    expect(quick.edit?.files.map((file) => file.path)).toEqual([files[3]]);
    listings();
    const remembered = await lint({ cwd: root, now });
    expect(listings()).toBe(0);
    expect(remembered.findings.map((finding) => finding.file)).toEqual(expect.arrayContaining([files[0], files[3]]));
    const scratch = tempDir();
    fs.cpSync(root, scratch, { recursive: true });
    fs.rmSync(path.join(scratch, '.lessons'), { recursive: true, force: true });
    expect(JSON.stringify(remembered)).toBe(JSON.stringify(await lint({ cwd: scratch, now })).replaceAll(scratch, root));
  }, 30_000);

  it('keeps the index\'s tree as a delta over its base for a few changes, and writes the base again past them', async () => {
    const { root, files } = committedRepo();
    await writeIndex({ cwd: root });
    const baseFile = path.join(root, INDEX_TREE_FILE);
    const deltaFile = path.join(root, INDEX_TREE_DELTA);
    const base = fs.readFileSync(baseFile);
    const diskPairs = (): [string, string][] =>
      FOLDERS.flatMap((folder) =>
        fs
          .readdirSync(path.join(root, folder))
          .filter((name) => name.endsWith('.md'))
          .sort()
          .map((name): [string, string] => [`${folder}${name}`, gitBlobId(fs.readFileSync(path.join(root, folder, name)))]),
      );
    const retitle = (file: string, title: string): void => fs.writeFileSync(path.join(root, file), fs.readFileSync(path.join(root, file), 'utf8').replace(/^title: .*$/m, `title: ${title}`));
    // An edit, an added lesson, a removed one: each a delta over the same base.
    retitle(files[1]!, 'Retitled once');
    await writeIndex({ cwd: root });
    writeFiles(root, caseFile(7));
    await writeIndex({ cwd: root });
    fs.rmSync(path.join(root, files[3]!));
    await writeIndex({ cwd: root });
    expect(fs.readFileSync(baseFile)).toEqual(base);
    expect(fs.existsSync(deltaFile)).toBe(true);
    expect([...rememberedPairs(root, openLessonCache(root))!]).toEqual(diskPairs());
    // Past the delta's bound the base is written again, whole.
    const many: Record<string, string> = {};
    for (let n = 10; n < 10 + 300; n++) Object.assign(many, lessonFile({ id: `case-2026-02-01-many-${n}`, level: 'case', title: `Many ${n}` }));
    writeFiles(root, many);
    await writeIndex({ cwd: root });
    expect(fs.readFileSync(baseFile)).not.toEqual(base);
    expect(fs.existsSync(deltaFile)).toBe(false);
    expect([...rememberedPairs(root, openLessonCache(root))!]).toEqual(diskPairs());
    // And the index is the one a build from scratch gives.
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toBe(await indexFromScratch(root));
  }, 60_000);

  it('finds links and folders among entries listed by name alone', async () => {
    const { root } = committedRepo();
    fs.symlinkSync(path.join(root, 'README.md'), path.join(root, 'lessons/cases/link.md'));
    fs.mkdirSync(path.join(root, 'lessons/cases/folder.md'));
    const listing = await listWorktree(root, openLessonCache(root), 0, startGitListing(root, FOLDERS));
    const kinds = Object.fromEntries(listing.files.map((file) => [file.path, file.entry.kind]));
    expect(kinds['lessons/cases/link.md']).toBe('symlink');
    expect(kinds['lessons/cases/folder.md']).toBe('directory');
    expect(listing.files.filter((file) => file.entry.kind === 'file')).toHaveLength(6);
    expect(listing.files.every((file) => file.entry.untyped === undefined)).toBe(true);
    expect(listing.irregular).toBe(true);
    expect(listing.remember).toBeUndefined();
  });
});
