import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listWorktree, loadWorktreeFacts, openLessonCache } from '../../src/store/worktree.js';
import { gitAnswersCheaply, gitVouchedBlobs } from '../../src/io/git/vouched.js';
import { gitBlobId } from '../../src/util/digest.js';
import { lessonFile } from '../helpers/lessons.js';
import { pick, seededRandom } from '../helpers/random.js';
import { git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

/**
 * Past GIT_VOUCH_MIN lesson files the listing takes git's word for the files git finds as its
 * index holds them (no stat, no read of ours); every other file is read. Here the threshold is
 * 0, so small repositories go the way large ones do.
 */

const FOLDERS = ['lessons/cases/', 'lessons/patterns/', 'lessons/principles/'];

function caseFile(n: number): Record<string, string> {
  return lessonFile({ id: `case-2026-01-${String(n).padStart(2, '0')}-thing-${n}`, level: 'case', title: `Thing ${n} broke` });
}

/** A lessons repository inside a git repository (at `sub`, when given), six cases committed. */
function committedRepo(sub = ''): { top: string; root: string; files: string[] } {
  const top = initGitRepo(tempDir());
  const root = sub === '' ? top : path.join(top, sub);
  const made = tempLessonsRepo();
  fs.cpSync(made, root, { recursive: true });
  const lessons: Record<string, string> = {};
  for (let n = 1; n <= 6; n++) Object.assign(lessons, caseFile(n));
  writeFiles(root, lessons);
  git(top, 'add', '-A');
  git(top, 'commit', '-qm', 'lessons');
  return { top, root, files: Object.keys(lessons).sort() };
}

/** Each listed file's blob as the listing and the facts load give it, beside the blob of its bytes on disk. */
async function blobsAgainstDisk(root: string): Promise<{ listed: Map<string, string | undefined>; loaded: Map<string, string>; disk: Map<string, string>; byGit: Set<string> }> {
  const cache = openLessonCache(root);
  const listing = await listWorktree(root, cache, 0);
  const listed = new Map(listing.files.map((file) => [file.path, file.blob]));
  const byGit = new Set(listing.files.filter((file) => file.byGit && file.blob !== undefined).map((file) => file.path));
  const loaded = new Map((await loadWorktreeFacts(root, cache, {}, listing)).files.map((file) => [file.path, file.blob]));
  const disk = new Map(listing.files.map((file) => [file.path, gitBlobId(fs.readFileSync(path.join(root, file.path)))]));
  return { listed, loaded, disk, byGit };
}

describe('the listing through git', () => {
  it('takes git blobs for clean files and reads every file git does not vouch for', async () => {
    const { top, root, files } = committedRepo();
    const [clean, edited, stagedThenEdited, assumed, skipped] = files as [string, string, string, string, string];
    fs.appendFileSync(path.join(root, edited), '\nEdited, not staged.\n');
    fs.appendFileSync(path.join(root, stagedThenEdited), '\nStaged.\n');
    git(top, 'add', stagedThenEdited);
    fs.appendFileSync(path.join(root, stagedThenEdited), '\nEdited again.\n');
    // Git no longer looks at these files' stat: its blob would be the old content.
    git(top, 'update-index', '--assume-unchanged', assumed);
    fs.appendFileSync(path.join(root, assumed), '\nEdited under assume-unchanged.\n');
    git(top, 'update-index', '--skip-worktree', skipped);
    fs.appendFileSync(path.join(root, skipped), '\nEdited under skip-worktree.\n');
    writeFiles(root, caseFile(9));
    const untracked = Object.keys(caseFile(9))[0]!;

    const { listed, loaded, disk, byGit } = await blobsAgainstDisk(root);
    expect(byGit.has(clean)).toBe(true);
    for (const path of [edited, stagedThenEdited, assumed, skipped, untracked]) {
      expect(byGit.has(path), path).toBe(false);
      expect(listed.get(path), path).toBeUndefined();
    }
    // What the run takes for each file is what the file holds.
    expect([...loaded]).toEqual([...disk]);
    expect(loaded.size).toBe(files.length + 1);
  });

  it('does not believe git for a file rewritten with the same size and mtime (git compares its ctime, or its bytes when racy)', async () => {
    const { root, files } = committedRepo();
    const target = path.join(root, files[0]!);
    const before = fs.statSync(target);
    const text = fs.readFileSync(target, 'utf8');
    fs.writeFileSync(target, text.replace('broke', 'BROKE'));
    fs.utimesSync(target, before.atime, before.mtime);
    expect(fs.statSync(target).size).toBe(before.size);
    const { loaded, disk, byGit } = await blobsAgainstDisk(root);
    expect(byGit.has(files[0]!)).toBe(false);
    expect([...loaded]).toEqual([...disk]);
  });

  it('works from a lessons repository in a folder of the git repository (paths relative to it)', async () => {
    const { root, files } = committedRepo('docs/team');
    fs.appendFileSync(path.join(root, files[1]!), '\nEdited.\n');
    const vouched = await gitVouchedBlobs(root, FOLDERS);
    expect([...vouched!.keys()].sort()).toEqual(files.filter((file) => file !== files[1]));
    const { loaded, disk, byGit } = await blobsAgainstDisk(root);
    expect(byGit.size).toBe(files.length - 1);
    expect([...loaded]).toEqual([...disk]);
  });

  it('gives every file the blob of its bytes through random edits, same-size edits, deletions, additions, stagings and commits', async () => {
    const { top, root } = committedRepo();
    const random = seededRandom(17);
    const cases = (): string[] => fs.readdirSync(path.join(root, 'lessons/cases')).map((name) => `lessons/cases/${name}`);
    let added = 10;
    for (let round = 0; round < 20; round++) {
      for (let change = 0; change < 3; change++) {
        const file = pick(random, cases());
        const full = path.join(root, file);
        const kind = pick(random, ['append', 'same-size', 'delete', 'add', 'stage', 'commit']);
        if (kind === 'append') fs.appendFileSync(full, `\nRound ${round}.\n`);
        else if (kind === 'same-size') {
          // The size and the mtime as they were: git tells by ctime, or by the bytes of a racily clean entry.
          const before = fs.statSync(full);
          const text = fs.readFileSync(full, 'utf8');
          fs.writeFileSync(full, text.includes('broke') ? text.replace('broke', 'BROKE') : text.replace('BROKE', 'broke'));
          fs.utimesSync(full, before.atime, before.mtime);
        } else if (kind === 'delete' && cases().length > 3) fs.rmSync(full);
        else if (kind === 'add') writeFiles(root, caseFile(added++));
        else if (kind === 'stage') git(top, 'add', '-A');
        else if (kind === 'commit') {
          git(top, 'add', '-A');
          git(top, 'commit', '-q', '--allow-empty', '-m', `round ${round}`);
        }
      }
      const { loaded, disk } = await blobsAgainstDisk(root);
      expect([...loaded], `round ${round}`).toEqual([...disk]);
    }
  }, 60_000);

  it('is not asked in a repository much larger than its lessons (a monorepo), from a worktree too', () => {
    const { top, root } = committedRepo('team/lessons-home');
    const others: Record<string, string> = {};
    for (let n = 0; n < 3000; n++) others[`src/module-${n}/file.ts`] = `export const n = ${n};\n`;
    writeFiles(top, others);
    git(top, 'add', '-A');
    git(top, 'commit', '-qm', 'code');
    expect(gitAnswersCheaply(root, 6)).toBe(false);
    expect(gitAnswersCheaply(root, 3000)).toBe(true);
    // A linked worktree's .git is a file naming its git folder, whose index is its own.
    const linked = path.join(tempDir(), 'linked');
    git(top, 'worktree', 'add', '-q', linked);
    expect(fs.statSync(path.join(linked, '.git')).isFile()).toBe(true);
    expect(gitAnswersCheaply(path.join(linked, 'team/lessons-home'), 6)).toBe(false);
    expect(gitAnswersCheaply(path.join(linked, 'team/lessons-home'), 3000)).toBe(true);
    expect(gitAnswersCheaply(tempDir(), 1)).toBe(true);
  });

  it('falls back to stat and reads outside a git working tree', async () => {
    const root = tempLessonsRepo({ ...caseFile(1), ...caseFile(2) });
    expect(await gitVouchedBlobs(root, FOLDERS)).toBeUndefined();
    const { loaded, disk, byGit } = await blobsAgainstDisk(root);
    expect(byGit.size).toBe(0);
    expect([...loaded]).toEqual([...disk]);
    expect(loaded.size).toBe(2);
  });
});
