import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeIndex, type IndexedTree } from '../../src/store/index-write.js';
import { packageVersion } from '../../src/io/package-root.js';
import { resolvePolicy } from '../../src/policy/policy.js';
import { selectFromIndex } from '../../src/preflight/preflight.js';
import { CACHE_FILE, DELTA_FILE, INLINE_UPDATE_BYTES, openSearch, searchFromLessons, updateSearch } from '../../src/search/cache.js';
import { loadLessons } from '../../src/lesson/load.js';
import { lessonFoldersMtime } from '../../src/search/files.js';
import { openCached } from '../../src/search/open.js';
import { RACY_MS } from '../../src/search/delta.js';
import type { SearchIndex } from '../../src/search/search-index.js';
import { generateRepo } from '../bench/synthetic.js';
import { NOW, taskInput } from '../helpers/preflight.js';
import { git, initGitRepo, runCli } from '../helpers/repo.js';
import { pick, seededRandom } from '../helpers/random.js';

/**
 * The search cache updated lesson by lesson (a delta over the base, compacted past a share)
 * must read exactly as one built from scratch: the same statistics, postings, scores, records,
 * links, triggers, phrases and thesaurus relatives, and so the same selections, byte for byte.
 */

const INPUTS = [
  taskInput('bump the version and publish the release of the ledger api'),
  taskInput('a database migration locked the table in production'),
  taskInput('rotate the leaked api key that was committed'),
  taskInput('make the webhook consumer idempotent so it stops charging twice'),
  taskInput('the cron schedule skipped a run after daylight saving'),
  taskInput('upgrade the base image and read the changelog'),
  taskInput('', { tool: 'Edit', paths: ['services/api/package.json'] }),
  taskInput('', { tool: 'Bash', command: 'kubectl apply -f deploy.yaml' }),
];
const WORDS = ['ledger', 'release', 'migration', 'webhook', 'idempotent', 'rollback', 'quasar', 'zephyrine', 'token', 'cache', 'deploy', 'schedule'];

/** Everything a query can read from an index, as plain data. */
function snapshot(index: SearchIndex): unknown {
  const terms = index.terms;
  const docs = Array.from({ length: index.docCount }, (_, doc) => doc);
  return {
    docCount: index.docCount,
    terms,
    postings: terms.map((_, t) => {
      const { docs: numbers, scores, fields } = index.postings(t);
      return [Array.from(numbers), Array.from(scores), Array.from(fields)];
    }),
    meta: docs.map((doc) => index.meta(doc)),
    records: docs.map((doc) => index.record(doc)),
    lineage: docs.map((doc) => index.lineage(doc)),
    // Per lesson, as a query reads them: the groups are each segment's own.
    triggers: index.triggerGroups().flatMap(({ docs: numbers, ...triggers }) => numbers.map((doc) => ({ doc, ...triggers }))).sort((a, b) => a.doc - b.doc),
    phrases: index.phrases(terms).sort((a, b) => a.doc - b.doc || a.terms.join(' ').localeCompare(b.terms.join(' '))),
    related: terms.map((term) => index.related(term)),
    projects: ['ledger', 'nope', ...docs.slice(0, 50).map((doc) => index.meta(doc).project ?? '')].map((project) => docs.map(index.projectMatch(project))),
  };
}

function selections(index: SearchIndex): string {
  const policy = resolvePolicy({});
  return JSON.stringify(INPUTS.map((input) => selectFromIndex(index, input, policy, NOW).selected));
}

/** Written as the CLI writes (temp file and rename), so the lesson folders' mtime moves. */
function writeAtomic(file: string, text: string): void {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

function lessonFiles(root: string): string[] {
  return ['cases', 'patterns', 'principles'].flatMap((folder) => fs.readdirSync(path.join(root, 'lessons', folder)).map((name) => path.join(root, 'lessons', folder, name))).sort();
}

/**
 * One random change to the lessons: edit a title, a body, a keyword, a status; add, rename or
 * delete a lesson. `edit` writes an edited file: by rename (as the CLI writes) unless told.
 */
function change(root: string, random: () => number, step: number, edit: (file: string, text: string) => void = writeAtomic): void {
  const files = lessonFiles(root);
  const file = pick(random, files);
  const text = fs.readFileSync(file, 'utf8');
  const word = pick(random, WORDS);
  const roll = random();
  if (roll < 0.2) {
    edit(file, text.replace(/^title: "(.*)"$/m, (_, title: string) => `title: ${JSON.stringify(`${title} ${word}`)}`));
  } else if (roll < 0.35) {
    edit(file, text.replace(/^We now (.*)$/m, `We now ${word} and then $1 ${word}`));
  } else if (roll < 0.45) {
    edit(file, text.replace(/^status: \w+$/m, random() < 0.5 ? 'status: retired\nretired_reason: replaced' : 'status: canonical'));
  } else if (roll < 0.6) {
    const id = /^id: (.*)$/m.exec(text)![1]!;
    const copy = `${id.slice(0, 40)}-${word}-${step}`;
    const body = text.replace(/^id: .*$/m, `id: ${copy}`).replace(/^title: "(.*)"$/m, `title: "A ${word} ${step} case about the ledger release"`);
    writeAtomic(path.join(path.dirname(file), `${copy}.md`), body);
  } else if (roll < 0.75) {
    const id = /^id: (.*)$/m.exec(text)![1]!;
    const renamed = `${id}-renamed`;
    writeAtomic(path.join(path.dirname(file), `${renamed}.md`), text.replace(/^id: .*$/m, `id: ${renamed}`));
    fs.rmSync(file);
  } else if (roll < 0.9) {
    fs.rmSync(file);
  } else {
    edit(file, text.replace(/^(\s+keywords: \[)/m, `$1"${word} ${pick(random, WORDS)}", `).replace(/^project: .*$/m, `project: ${word}`));
  }
}

/** The index from scratch: the same cache code with no cache files, which then are put back. */
async function fromScratch(root: string): Promise<{ snapshot: unknown; selections: string }> {
  const cache = path.join(root, '.lessons/cache');
  const aside = path.join(root, '.lessons/cache-aside');
  fs.renameSync(cache, aside);
  try {
    const opened = await openSearch(root);
    try {
      expect(opened.index.hasDelta).toBe(false);
      return { snapshot: snapshot(opened.index), selections: selections(opened.index) };
    } finally {
      opened.close();
    }
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
    fs.renameSync(aside, cache);
  }
}

describe('search cache updated lesson by lesson', () => {
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-incremental-'));
    await generateRepo(root, 300, 11);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads exactly as a full build after random edits, additions, renames, retirements and deletions', { timeout: 180_000 }, async () => {
    const random = seededRandom(2026);
    (await openSearch(root)).close();
    let deltas = 0;
    let compactions = 0;
    let hadDelta = false;
    for (let step = 0; step < 24; step++) {
      const changes = 1 + Math.floor(random() * 3);
      for (let i = 0; i < changes; i++) change(root, random, step);
      await writeIndex({ cwd: root });
      const opened = await openSearch(root);
      let incremental: { snapshot: unknown; selections: string };
      try {
        if (opened.index.hasDelta) deltas++;
        else if (hadDelta) compactions++;
        hadDelta = opened.index.hasDelta;
        expect(opened.warning).toBeUndefined();
        incremental = { snapshot: snapshot(opened.index), selections: selections(opened.index) };
      } finally {
        opened.close();
      }
      const scratch = await fromScratch(root);
      expect(incremental.selections).toBe(scratch.selections);
      expect(incremental.snapshot).toEqual(scratch.snapshot);
    }
    // Both ways of updating were exercised: deltas, and a full build once the delta grew past its share.
    expect(deltas).toBeGreaterThan(5);
    expect(compactions).toBeGreaterThan(0);
  });

  it('reopens a delta without rebuilding, and discards a delta that is cut short or names another base', async () => {
    // Past the racy window of the last test's writes: a racy stamp that settled between two builds would make them differ.
    await new Promise((resolve) => setTimeout(resolve, RACY_MS));
    const file = lessonFiles(root).find((name) => name.includes('/cases/'))!;
    writeAtomic(file, fs.readFileSync(file, 'utf8').replace(/^title: "(.*)"$/m, 'title: "The ledger release went out twice"'));
    await writeIndex({ cwd: root });
    (await openSearch(root)).close();
    const base = fs.statSync(path.join(root, CACHE_FILE));
    const delta = fs.readFileSync(path.join(root, DELTA_FILE));
    const reopened = await openSearch(root);
    expect(reopened.index.hasDelta).toBe(true);
    const expected = selections(reopened.index);
    reopened.close();
    expect(fs.statSync(path.join(root, CACHE_FILE)).mtimeMs).toBe(base.mtimeMs);

    for (const damaged of [delta.subarray(0, delta.length - 40), Buffer.from(delta.toString('latin1').replace(/"base":"[^"]*"/, `"base":"${'0'.repeat(64)}"`), 'latin1')]) {
      fs.writeFileSync(path.join(root, DELTA_FILE), damaged);
      const opened = await openSearch(root);
      try {
        expect(selections(opened.index)).toBe(expected);
      } finally {
        opened.close();
      }
      // The damaged delta was replaced by a sound one.
      expect(fs.readFileSync(path.join(root, DELTA_FILE)).equals(delta)).toBe(true);
    }
  });
});

/** A git repository of `count` generated lessons, committed, with a search cache built. */
async function committedRepo(prefix: string, count: number, seed: number): Promise<string> {
  const root = initGitRepo(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  await generateRepo(root, count, seed);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'lessons');
  (await openSearch(root)).close();
  return root;
}

describe('`lessons index` bringing the search cache along with the tree it read', () => {
  let root: string;
  beforeAll(async () => {
    root = await committedRepo('lessons-handover-', 240, 21);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The cache as `lessons index` left it, opened without bringing it up to date. */
  function cached(): SearchIndex & { close(): void } {
    const opened = openCached(root);
    expect(opened.warning).toBeUndefined();
    return Object.assign(opened.index!, { close: opened.close });
  }

  function lessonsWith(index: SearchIndex, prefix: string): string[] {
    const term = index.terms.findIndex((word) => word.startsWith(prefix));
    return term < 0 ? [] : Array.from(index.postings(term).docs, (doc) => index.record(doc).id);
  }

  function index(): string {
    const result = runCli(['index'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    return result.stdout;
  }

  it('finds a lesson whose body alone changed (the index stays as it was), edited in place or saved by rename, and the edit undone', async () => {
    const file = lessonFiles(root).find((name) => name.includes('/cases/'))!;
    const id = /^id: (.*)$/m.exec(fs.readFileSync(file, 'utf8'))![1]!;
    const text = fs.readFileSync(file, 'utf8');
    for (const [write, how] of [
      [(name: string, content: string) => fs.writeFileSync(name, content), 'in place'],
      [writeAtomic, 'by rename'],
    ] as const) {
      write(file, text.replace(/^We now (.*)$/m, 'We now quasarize the zephyrine and $1'));
      expect(index(), how).toMatch(/^unchanged: lessons\/index.json/);
      const edited = cached();
      try {
        expect(lessonsWith(edited, 'zephyr'), how).toEqual([id]);
        expect(snapshot(edited)).toEqual((await fromScratch(root)).snapshot);
      } finally {
        edited.close();
      }
      // Run again with nothing changed: the cache was brought along for this very tree, and is left as it is.
      const written = [CACHE_FILE, DELTA_FILE].map((name) => fs.statSync(path.join(root, name), { throwIfNoEntry: false })?.mtimeMs);
      expect(index(), how).toMatch(/^unchanged: lessons\/index.json/);
      expect([CACHE_FILE, DELTA_FILE].map((name) => fs.statSync(path.join(root, name), { throwIfNoEntry: false })?.mtimeMs), how).toEqual(written);
      write(file, text);
      expect(index(), how).toMatch(/^unchanged: lessons\/index.json/);
      const undone = cached();
      try {
        expect(lessonsWith(undone, 'zephyr'), how).toEqual([]);
        expect(snapshot(undone)).toEqual((await fromScratch(root)).snapshot);
      } finally {
        undone.close();
      }
    }
  });

  it('reads exactly as a full build after random edits in place and by rename, each followed by `lessons index`', { timeout: 180_000 }, async () => {
    const random = seededRandom(77);
    const inPlace = (file: string, content: string): void => fs.writeFileSync(file, content);
    for (let step = 0; step < 12; step++) {
      const changes = 1 + Math.floor(random() * 3);
      for (let i = 0; i < changes; i++) change(root, random, step, random() < 0.6 ? inPlace : writeAtomic);
      index();
      const brought = cached();
      try {
        expect(selections(brought)).toBe((await fromScratch(root)).selections);
        expect(snapshot(brought)).toEqual((await fromScratch(root)).snapshot);
      } finally {
        brought.close();
      }
    }
  });
});

describe('`lessons index` handing the search cache the entries its update touched', () => {
  let root: string;
  beforeAll(async () => {
    root = await committedRepo('lessons-touched-', 240, 33);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const cacheFiles = [CACHE_FILE, DELTA_FILE];
  const read = (): (Buffer | undefined)[] => cacheFiles.map((name) => (fs.existsSync(path.join(root, name)) ? fs.readFileSync(path.join(root, name)) : undefined));
  const put = (files: (Buffer | undefined)[]): void =>
    cacheFiles.forEach((name, i) => (files[i] ? fs.writeFileSync(path.join(root, name), files[i]!) : fs.rmSync(path.join(root, name), { force: true })));
  const sourceTree = (): string | undefined => {
    const opened = openCached(root);
    try {
      return opened.index?.source.tree;
    } finally {
      opened.close();
    }
  };

  /**
   * `lessons index` as the CLI runs it (the update under the lessons lock, with the tree the index
   * is of), then, when the update was one of the index the cache was brought along for and wrote
   * a delta, the same update again from the cache as it was, comparing every entry (the tree
   * without what the update touched): true when both wrote the same bytes.
   */
  async function indexAndCompare(): Promise<boolean> {
    const before = read();
    const from = sourceTree();
    let handed: IndexedTree | undefined;
    const foldersMtime = lessonFoldersMtime(root);
    await writeIndex({
      cwd: root,
      afterwards: async (_, tree) => {
        handed = tree;
        (await updateSearch(root, { handover: tree && { tree, foldersMtime } })).close();
      },
    });
    const after = read();
    // Only a delta: a full build takes racy stamps by the clock, so two of them may differ.
    if (!handed?.change || handed.change.from !== from || after[1] === undefined) return false;
    put(before);
    const { change: _, ...whole } = handed;
    (await updateSearch(root, { handover: { tree: whole, foldersMtime } })).close();
    // Compared as bytes (a deep comparison of a buffer walks it element by element).
    read().forEach((bytes, i) => expect(bytes === undefined ? undefined : bytes.equals(after[i]!), cacheFiles[i]).toBe(after[i] === undefined ? undefined : true));
    return true;
  }

  it('writes the same cache, byte for byte, as comparing every entry, after random edits, additions, renames, retirements and deletions', { timeout: 180_000 }, async () => {
    const random = seededRandom(4242);
    const inPlace = (file: string, content: string): void => fs.writeFileSync(file, content);
    let compared = 0;
    for (let step = 0; step < 40; step++) {
      const changes = 1 + Math.floor(random() * 3);
      for (let i = 0; i < changes; i++) change(root, random, step, random() < 0.5 ? inPlace : writeAtomic);
      if (await indexAndCompare()) compared++;
    }
    // Most steps were an update, into a delta, of the index the cache was brought along for.
    expect(compared).toBeGreaterThan(25);
  });

  it('keeps the settled stamps a preflight left for the entries it does not compare', { timeout: 60_000 }, async () => {
    const files = lessonFiles(root).filter((name) => name.includes('/cases/'));
    const retitle = (file: string, title: string): void => writeAtomic(file, fs.readFileSync(file, 'utf8').replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`));
    // A cache built at once, its stamps racy; past the racy window, a preflight's update (no tree handed over) settles them.
    fs.rmSync(path.join(root, '.lessons/cache'), { recursive: true, force: true });
    (await openSearch(root)).close();
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
    retitle(files[0]!, 'The ledger release went out twice');
    await writeIndex({ cwd: root });
    (await updateSearch(root)).close();
    const settled = openCached(root);
    try {
      expect(settled.index!.deltaSegment!.lines('entries').length).toBeGreaterThan(10);
    } finally {
      settled.close();
    }
    // The first `lessons index` compares every entry (the cache was not brought along for a tree); the next ones, what they touched.
    // Each edit is dated past the racy window, so its stamp is settled in both builds indexAndCompare compares, however slowly
    // a loaded machine runs them (a stamp that settles between the two would make their bytes differ).
    const settledEdit = (file: string, title: string, n: number): void => {
      retitle(file, title);
      const past = (Date.now() - RACY_MS - 1_000 - n) / 1000;
      fs.utimesSync(file, past, past);
    };
    settledEdit(files[1]!, 'The quasar schedule skipped a run', 0);
    expect(await indexAndCompare()).toBe(false);
    for (const [n, title] of ['The zephyrine webhook charged twice', 'A rollback of the cache deploy'].entries()) {
      settledEdit(files[2 + n]!, title, n + 1);
      expect(await indexAndCompare()).toBe(true);
    }
  });
});

describe('a lesson whose frontmatter closes with `...`, saved with a byte order mark and CRLF line ends', () => {
  it('is searched by the same body from the cache as from its parsed file, and its frontmatter is not body text', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-delimiters-'));
    try {
      await generateRepo(root, 30, 5);
      const file = lessonFiles(root).find((name) => name.includes('/cases/'))!;
      const text = fs.readFileSync(file, 'utf8').replace(/^project: .*$/m, 'project: quasarlane').replace(/^We now (.*)$/m, 'We now quasarize the zephyrine and $1');
      const lines = text.split('\n');
      lines[lines.indexOf('---', 1)] = '...';
      fs.writeFileSync(file, `\uFEFF${lines.join('\r\n')}`);
      await writeIndex({ cwd: root });
      const id = /^id: (.*)$/m.exec(text)![1]!.trim();
      const cached = await openSearch(root);
      const parsed = await searchFromLessons(loadLessons(root).lessons);
      try {
        expect(cached.warning).toBeUndefined();
        expect(snapshot(cached.index)).toEqual(snapshot(parsed.index));
        const word = (prefix: string): string[] => {
          const term = cached.index.terms.findIndex((each) => each.startsWith(prefix));
          return term < 0 ? [] : Array.from(cached.index.postings(term).docs, (doc) => cached.index.record(doc).id);
        };
        expect(word('zephyr')).toEqual([id]);
        // The project is a frontmatter field, not a word of the body.
        expect(word('quasarlane')).toEqual([]);
      } finally {
        cached.close();
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a search cache written by another version of lessons', () => {
  it('is never read: the next run rebuilds it', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-version-'));
    try {
      await generateRepo(root, 60, 9);
      const first = await openSearch(root);
      const expected = selections(first.index);
      first.close();
      const file = path.join(root, CACHE_FILE);
      const bytes = fs.readFileSync(file).toString('latin1');
      const version = /"tool":"([^"]*)"/.exec(bytes)![1]!;
      expect(version).toBe(packageVersion());
      // Another version, the same length: the layout would still parse.
      const other = version.replace(/\d/, (digit) => String((Number(digit) + 1) % 10));
      fs.writeFileSync(file, Buffer.from(bytes.replace(`"tool":"${version}"`, `"tool":"${other}"`), 'latin1'));
      const opened = await openSearch(root);
      try {
        expect(selections(opened.index)).toBe(expected);
      } finally {
        opened.close();
      }
      expect(/"tool":"([^"]*)"/.exec(fs.readFileSync(file).toString('latin1'))![1]).toBe(version);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a lesson file changed with the same size and mtime (a racy stamp)', () => {
  it('is compared by content when its stamp was taken within RACY_MS of its mtime', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-racy-'));
    try {
      await generateRepo(root, 120, 3);
      const files = lessonFiles(root).filter((name) => name.includes('/cases/'));
      const [edited, other] = [files[0]!, files[1]!];
      const id = /^id: (.*)$/m.exec(fs.readFileSync(edited, 'utf8'))![1]!;
      const seconds = Date.now() / 1000;
      fs.utimesSync(edited, seconds, seconds);
      (await openSearch(root)).close();

      // In place, the same length, the same mtime and inode: only the content tells.
      const text = fs.readFileSync(edited, 'utf8');
      const changed = text.replace(/^We now (.{9})/m, 'We now zephyrine');
      expect(changed.length).toBe(text.length);
      fs.writeFileSync(edited, changed);
      fs.utimesSync(edited, seconds, seconds);
      // Another lesson's change rewrites the index, so the cache is updated.
      writeAtomic(other, fs.readFileSync(other, 'utf8').replace(/^title: "(.*)"$/m, 'title: "$1 again"'));
      await writeIndex({ cwd: root });
      const opened = await openSearch(root);
      try {
        expect(opened.index.hasDelta).toBe(true);
        const term = opened.index.terms.findIndex((word) => word.startsWith('zephyr'));
        expect(term).toBeGreaterThanOrEqual(0);
        expect(Array.from(opened.index.postings(term).docs, (doc) => opened.index.record(doc).id)).toEqual([id]);
        expect(snapshot(opened.index)).toEqual((await fromScratch(root)).snapshot);
      } finally {
        opened.close();
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a racy stamp found unchanged once its file is past the racy window', () => {
  it('is kept settled in the delta, so later updates compare its stamp alone; a later edit of the file is still found', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-settle-'));
    try {
      await generateRepo(root, 120, 4);
      const files = lessonFiles(root).filter((name) => name.includes('/cases/'));
      const [racy, other] = [files[0]!, files[1]!];
      const id = /^id: (.*)$/m.exec(fs.readFileSync(racy, 'utf8'))![1]!;
      const lineOf = (lines: readonly string[]): string[] | undefined => lines.find((line) => line.startsWith(`${id}\t`))?.split('\t');
      // Written just now as far as a cache built at once can tell, and past the racy window 1.2 s later.
      const then = Date.now() - RACY_MS + 1200;
      fs.utimesSync(racy, then / 1000, then / 1000);
      const built = await openSearch(root);
      const base = lineOf(built.index.baseSegment.lines('entries'))!;
      built.close();
      expect(base[7]).not.toBe('');
      // Within the window the file is hashed again, and its stamp stays racy.
      writeAtomic(other, fs.readFileSync(other, 'utf8').replace(/^title: "(.*)"$/m, 'title: "$1 soon"'));
      await writeIndex({ cwd: root });
      const soon = await openSearch(root);
      if (Date.now() - then < RACY_MS - 100) expect(lineOf(soon.index.deltaSegment!.lines('entries'))).toBeUndefined();
      soon.close();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, then + RACY_MS + 100 - Date.now())));

      writeAtomic(other, fs.readFileSync(other, 'utf8').replace(/ soon"$/m, ' again"'));
      await writeIndex({ cwd: root });
      const updated = await openSearch(root);
      try {
        expect(updated.index.hasDelta).toBe(true);
        // The same size, mtime and inode as built, without the content hash a racy stamp carries.
        expect(lineOf(updated.index.deltaSegment!.lines('entries'))).toEqual([...base.slice(0, 7), '', base[8]]);
        expect(snapshot(updated.index)).toEqual((await fromScratch(root)).snapshot);
      } finally {
        updated.close();
      }

      // The settled stamp is carried to the next delta, and an edit of the file (a new mtime) is found.
      writeAtomic(other, fs.readFileSync(other, 'utf8').replace(/ again"$/m, ' once more"'));
      await writeIndex({ cwd: root });
      const carried = await openSearch(root);
      expect(lineOf(carried.index.deltaSegment!.lines('entries'))).toEqual([...base.slice(0, 7), '', base[8]]);
      carried.close();
      writeAtomic(racy, fs.readFileSync(racy, 'utf8').replace(/^We now (.{9})/m, 'We now zephyrine'));
      await writeIndex({ cwd: root });
      const edited = await openSearch(root);
      try {
        const term = edited.index.terms.findIndex((word) => word.startsWith('zephyr'));
        expect(Array.from(edited.index.postings(term).docs, (doc) => edited.index.record(doc).id)).toEqual([id]);
        expect(lineOf(edited.index.deltaSegment!.lines('entries'))).toBeUndefined();
        expect(snapshot(edited.index)).toEqual((await fromScratch(root)).snapshot);
      } finally {
        edited.close();
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a caller that must not wait (an agent hook) with a stale search cache', () => {
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-stale-'));
    // Past INLINE_UPDATE_BYTES of index, so a stale cache is not updated inline.
    await generateRepo(root, 2600, 5);
    expect(fs.statSync(path.join(root, 'lessons/index.json')).size).toBeGreaterThan(INLINE_UPDATE_BYTES);
    (await openSearch(root)).close();
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const NO_OP = [process.execPath, '-e', '0'];
  const ZEPHYR = taskInput('zephyrine quasar ledger outage');
  const selectedIds = (index: SearchIndex, input = ZEPHYR): string[] => selectFromIndex(index, input, resolvePolicy({}), NOW).selected.map((lesson) => lesson.id);

  it('answers from the cache as it was, writes nothing itself, and a detached process brings the cache up to date', { timeout: 120_000 }, async () => {
    const file = lessonFiles(root).find((name) => name.includes('/cases/'))!;
    const id = /^id: (.*)$/m.exec(fs.readFileSync(file, 'utf8'))![1]!;
    writeAtomic(file, fs.readFileSync(file, 'utf8').replace(/^title: "(.*)"$/m, 'title: "Zephyrine quasar ledger outage"'));
    await writeIndex({ cwd: root });
    const base = fs.statSync(path.join(root, CACHE_FILE)).mtimeMs;

    const stale = await openSearch(root, { update: 'background', refreshCommand: NO_OP });
    try {
      expect(stale.warning).toBeUndefined();
      expect(selectedIds(stale.index)).not.toContain(id);
    } finally {
      stale.close();
    }
    expect(fs.statSync(path.join(root, CACHE_FILE)).mtimeMs).toBe(base);
    expect(fs.existsSync(path.join(root, DELTA_FILE))).toBe(false);

    // The real updater: dist/cli/fast/search-refresh.js, detached.
    (await openSearch(root, { update: 'background' })).close();
    const deadline = Date.now() + 60_000;
    let fresh: string[] = [];
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (!fs.existsSync(path.join(root, DELTA_FILE)) || fs.existsSync(path.join(root, '.lessons/locks/search-cache.lock'))) continue;
      const opened = await openSearch(root, { update: 'background', refreshCommand: NO_OP });
      try {
        fresh = selectedIds(opened.index);
        if (fresh.includes(id)) expect(opened.index.hasDelta).toBe(true);
      } finally {
        opened.close();
      }
      if (fresh.includes(id)) break;
    }
    expect(fresh).toContain(id);
    expect(fs.statSync(path.join(root, CACHE_FILE)).mtimeMs).toBe(base);
  });

  it('with no cache at all, answers without lessons at once and says so', async () => {
    fs.rmSync(path.join(root, '.lessons/cache'), { recursive: true, force: true });
    const opened = await openSearch(root, { update: 'background', refreshCommand: NO_OP });
    expect(opened.index.docCount).toBe(0);
    expect(opened.warning).toBe('the search cache is being built in the background: this answer has no lessons');
    expect(fs.existsSync(path.join(root, CACHE_FILE))).toBe(false);
  });
});
