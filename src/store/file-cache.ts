import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compareStrings } from '../util/compare.js';
import { openRegularFile, readRegularFile, statIdentity, writeInRepo } from '../io/fs.js';
import { pathInside } from '../io/inside.js';
import { withLock } from '../io/lock.js';
import { ensureStateDir } from '../io/state.js';
import { INDEX_FILE, STATE_DIR } from '../io/repo.js';

/**
 * Per-file results by content, under .lessons/cache/files/: what was computed from a file's
 * bytes, keyed by its path and git blob id, so a run recomputes only the files that changed.
 *
 * - `meta.json`: the cache key (tool version, schemas, policy) and memos of whole-tree results.
 * - `stats.json`: the worktree's stat table (path -> blob id and size:mtime:ctime:inode), read
 *   only by a run that looks at the working tree's files (a check of the staged tree does not);
 *   `stats-delta.json` beside it, the entries that changed since, for the base it names (a run
 *   that changed a few files writes those, not the whole table: 18 MB at 100,000 lessons). The
 *   base is written again once the delta passes a fiftieth of it.
 * - `NNN.jsonl`, 1024 shards by a hash of the path (FNV-1a: at 100,000 lessons a shard holds
 *   ~100 entries, so a run that looks up a few files parses little): a header line with the key, then one entry
 *   a line (`{"path","blob","facts"}`) in path order. A run reads only the shards of the paths
 *   it looks up.
 *
 * Trust: an entry is found by blob id (git gives it for staged and committed files), or for a
 * working-tree file by its stat, and only when the file's mtime is older than the cache's
 * write (the racy-git rule): a file changed within the same clock tick, or with an mtime from
 * the future, is hashed again. A cache written in the future (clock skew), of another key or
 * that does not parse is ignored and rewritten; it is never an error.
 */

/**
 * A worktree file as the cache knows it: its stat identity, and its mtime for the racy rule.
 * Kept instead of the stat object itself: 100,000 of those, each with its BigInts and Dates,
 * cost more to collect than the stats cost to take.
 */
export interface StatMark {
  identity: string;
  mtimeNs: bigint;
}

export function statMark(stat: fs.BigIntStats): StatMark {
  return { identity: statIdentity(stat), mtimeNs: stat.mtimeNs };
}

/** The stat mark of the file at `file`, a link followed; throws when there is nothing there. */
export function statMarkOf(file: string): StatMark {
  return statMark(fs.statSync(file, { bigint: true }));
}

export const FILE_CACHE_DIR = `${STATE_DIR}/cache/files`;
const META = 'meta.json';
const STATS = 'stats.json';
const STATS_DELTA = 'stats-delta.json';
/** The fewest delta entries past which the base stat table is written again anyway. */
const STATS_DELTA_MIN = 256;
const SHARDS = 1024;
const FORMAT = 2;
/** How recent an mtime is, at a save, for its entry to be hashed again by the next run. */
export const RACY_MS = 2_000;
/** How long a save waits for another process's save before leaving it to that one. */
const SAVE_LOCK_MS = 1_000;


interface Meta {
  format: number;
  key: string;
  memos: Record<string, string>;
  /** The stat entries of the pinned paths (PINNED), kept here rather than in the stat table. */
  pins?: StatTable;
}

/**
 * Paths whose stat entry lives in meta.json, not in the stat table: lessons/index.json is looked
 * at by every run that reads or writes the index, and one lookup in the stat table would parse
 * all of it (18 MB at 100,000 lessons) when the lesson files need no stat (gitVouchedBlobs).
 */
const PINNED: ReadonlySet<string> = new Set([INDEX_FILE]);

/** Worktree path -> [blob id, stat identity]. */
type StatTable = Record<string, [string, string]>;

/** A cached file: its facts, or (read from a shard and not asked for yet) the shard's line that holds them. */
interface Entry<T> {
  path: string;
  blob: string;
  facts?: T;
  line?: string;
}

/** Where the facts start in a shard line (`{"path":…,"blob":…,"facts":…}`): the quote before a key is never inside a string, where it is escaped. */
const FACTS_KEY = ',"facts":';

/** FNV-1a of the path's UTF-16 code units: cheap, and stable across runs and machines. */
function shardOf(relPath: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < relPath.length; i++) hash = Math.imul(hash ^ relPath.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SHARDS;
}

function shardName(shard: number): string {
  return `${shard.toString(16).padStart(3, '0')}.jsonl`;
}

/** Only plain JSON values survive the round trip through the cache unchanged (a `.inf` in YAML does not). */
export function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    return (proto === Object.prototype || proto === null) && Object.entries(value as object).every(([, v]) => v !== undefined && isPlainJson(v));
  }
  return false;
}

export class FileCache<T> {
  private readonly root: string;
  private readonly dir: string;
  private readonly key: string;
  private meta: Meta;
  /** The stat table (base and delta), read on first use. */
  private stats: StatTable | undefined;
  /** The base stat table's id and size, and the delta's entries over it, as read. */
  private statBase: { id: string; size: number } | undefined;
  private statDelta: StatTable = {};
  /** When meta.json was written, in ns of the file system's clock; 0 when there was none. */
  private writtenNs = 0n;
  private shards = new Map<number, Map<string, Entry<T>>>();
  private dirtyShards = new Set<number>();
  private used = new Set<string>();
  /** Entries only listed by versions() this run: kept after the ones got or set, when a path has more than two. */
  private listed = new Set<string>();
  /** Entries kept for this run only: their facts would not survive JSON. */
  private volatile = new Set<string>();
  /** Entries set in this run: the only ones a save serialises; the others are written back as the shard file has them. */
  private setInRun = new Set<string>();
  private statRun: StatTable | undefined;
  private pinsRun: StatTable | undefined;
  /** The cache on disk is of an older format: its files of names this one does not use are removed at the save. */
  private olderFormat = false;
  private dirty = false;

  /** `key` names the code, the schemas and the policy the facts were computed with. */
  constructor(root: string, key: string) {
    this.root = root;
    this.dir = path.join(root, FILE_CACHE_DIR);
    this.key = key;
    this.meta = { format: FORMAT, key, memos: {} };
    try {
      // A .lessons/ linked out of the repository is neither read nor written.
      const file = pathInside(root, `${FILE_CACHE_DIR}/${META}`);
      const stat = fs.statSync(file, { bigint: true });
      const parsed = JSON.parse(readRegularFile(file, 'cache').toString('utf8')) as Meta;
      // The machine's clock, not a command's notion of today: this compares it with the file system's.
      const nowNs = BigInt(Date.now()) * 1_000_000n;
      // Written after now: a clock was set back or skewed, and no mtime can be compared with it.
      const skewed = stat.mtimeNs > nowNs + 1_000_000_000n;
      this.olderFormat = typeof parsed.format === 'number' && parsed.format < FORMAT;
      if (!skewed && parsed.format === FORMAT && parsed.key === key && parsed.memos) {
        this.meta = parsed;
        this.writtenNs = stat.mtimeNs;
      } else {
        this.dirty = true;
      }
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
  }

  /** The cache's key: what its entries were computed with (whole-tree memos beside it name it too). */
  keyOf(): string {
    return this.key;
  }

  /** The blob id of a worktree file whose stat is as recorded and older than the cache itself; undefined when it must be hashed. */
  trustedBlob(relPath: string, mark: StatMark): string | undefined {
    const known = PINNED.has(relPath) ? this.meta.pins?.[relPath] : this.statTable()[relPath];
    if (!known || known[1] !== mark.identity) return undefined;
    return mark.mtimeNs < this.writtenNs ? known[0] : undefined;
  }

  /** Records what a worktree file's stat stood for in this run (the table is replaced by the run's). */
  noteStat(relPath: string, blob: string, mark: StatMark): void {
    const { identity } = mark;
    if (PINNED.has(relPath)) {
      const pinned = this.meta.pins?.[relPath];
      if (pinned && pinned[0] === blob && pinned[1] === identity) return;
      this.pinsRun ??= {};
      this.pinsRun[relPath] = [blob, identity];
      return;
    }
    // Compared with the table only when a lookup parsed it already: noting a stat never parses it.
    const known = this.stats?.[relPath];
    if (known && known[0] === blob && known[1] === identity) return;
    this.statRun ??= {};
    this.statRun[relPath] = [blob, identity];
  }

  /**
   * The base stat table's id and size, and the delta over it, without parsing the base when no
   * lookup did: its head (`{"key":…,"id":…,"size":…,"files":`) says them. A base without its size
   * in the head (an older one) is parsed.
   */
  private statHead(): { base: { id: string; size: number } | undefined; delta: StatTable } {
    if (this.stats || this.writtenNs === 0n) return { base: this.statBase, delta: this.statDelta };
    let base: { id: string; size: number } | undefined;
    try {
      const fd = openRegularFile(path.join(this.dir, STATS));
      try {
        const head = Buffer.alloc(512);
        const read = fs.readSync(fd, head, 0, head.length, 0);
        const match = /^\{"key":"([0-9a-f]+)","id":"([0-9a-f]+)","size":(\d+),"files":/.exec(head.toString('latin1', 0, read));
        if (match && match[1] === this.key) base = { id: match[2]!, size: Number(match[3]) };
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // No base: the save writes one.
    }
    if (base === undefined) {
      this.statTable();
      return { base: this.statBase, delta: this.statDelta };
    }
    let delta: StatTable = {};
    try {
      const parsed = JSON.parse(readRegularFile(path.join(this.dir, STATS_DELTA), 'cache').toString('utf8')) as { key?: string; base?: string; files?: StatTable };
      if (parsed.key === this.key && parsed.base === base.id && parsed.files && typeof parsed.files === 'object') delta = parsed.files;
    } catch {
      // No delta over this base.
    }
    return { base, delta };
  }

  /** The stat table of the cache's last write (stats.json, under this key), or none. */
  private statTable(): StatTable {
    if (this.stats) return this.stats;
    this.stats = {};
    if (this.writtenNs === 0n) return this.stats;
    try {
      const parsed = JSON.parse(readRegularFile(path.join(this.dir, STATS), 'cache').toString('utf8')) as { key?: string; id?: string; files?: StatTable };
      if (parsed.key !== this.key || !parsed.files || typeof parsed.files !== 'object' || typeof parsed.id !== 'string') return this.stats;
      this.stats = parsed.files;
      this.statBase = { id: parsed.id, size: Object.keys(parsed.files).length };
    } catch {
      // Missing or unreadable: every worktree file is hashed again.
      return this.stats;
    }
    try {
      const delta = JSON.parse(readRegularFile(path.join(this.dir, STATS_DELTA), 'cache').toString('utf8')) as { key?: string; base?: string; files?: StatTable };
      if (delta.key === this.key && delta.base === this.statBase.id && delta.files && typeof delta.files === 'object') {
        this.statDelta = delta.files;
        Object.assign(this.stats, delta.files);
      }
    } catch {
      // No delta, or an unreadable one: the base as it is (what the delta held is hashed again).
    }
    return this.stats;
  }

  get(relPath: string, blob: string): T | undefined {
    const id = `${relPath}\0${blob}`;
    const shard = shardOf(relPath);
    const facts = this.factsOf(shard, id);
    if (facts !== undefined) this.used.add(id);
    return facts;
  }

  /**
   * An entry's facts, parsed from its shard line when first asked for (a run that looks up ten
   * files of a shard of a hundred parses ten). A line whose facts do not parse holds nothing:
   * the file's facts are computed again.
   */
  private factsOf(shard: number, id: string): T | undefined {
    const entries = this.shard(shard);
    const entry = entries.get(id);
    if (entry === undefined || entry.facts !== undefined) return entry?.facts;
    try {
      const facts = (JSON.parse(entry.line!) as { facts?: T }).facts;
      if (facts === undefined) throw new Error('no facts');
      entry.facts = facts;
      entry.line = undefined;
      return facts;
    } catch {
      entries.delete(id);
      this.dirtyShards.add(shard);
      return undefined;
    }
  }

  /**
   * Every version of a path the cache holds (at most two are kept), each then counted as listed:
   * kept after the versions this run got or set (the one set is the one the next run asks for).
   */
  versions(relPath: string): { blob: string; facts: T }[] {
    const found: { blob: string; facts: T }[] = [];
    const shard = shardOf(relPath);
    for (const [id, entry] of [...this.shard(shard)]) {
      if (entry.path !== relPath) continue;
      const facts = this.factsOf(shard, id);
      if (facts === undefined) continue;
      this.listed.add(id);
      found.push({ blob: entry.blob, facts });
    }
    return found;
  }

  /** Stores facts; ones that would not survive JSON are used for this run only. */
  set(relPath: string, blob: string, facts: T): void {
    const id = `${relPath}\0${blob}`;
    const shard = shardOf(relPath);
    this.shard(shard).set(id, { path: relPath, blob, facts });
    this.setInRun.add(id);
    this.used.add(id);
    if (isPlainJson(facts)) this.dirtyShards.add(shard);
    else this.volatile.add(id);
  }

  memo(name: string): string | undefined {
    return this.meta.memos[name];
  }

  setMemo(name: string, value: string): void {
    if (this.meta.memos[name] === value) return;
    this.meta.memos[name] = value;
    this.dirty = true;
  }

  private shard(shard: number): Map<string, Entry<T>> {
    let entries = this.shards.get(shard);
    if (entries) return entries;
    entries = new Map();
    this.shards.set(shard, entries);
    if (this.writtenNs === 0n) return entries;
    try {
      const lines = readRegularFile(path.join(this.dir, shardName(shard)), 'cache').toString('utf8').split('\n');
      const header = JSON.parse(lines[0]!) as { key?: string };
      if (header.key !== this.key) throw new Error('another key');
      for (const line of lines.slice(1)) {
        if (line === '') continue;
        // Only the path and blob are read now; the facts when they are asked for.
        const at = line.indexOf(FACTS_KEY);
        const head = at === -1 ? undefined : (JSON.parse(`${line.slice(0, at)}}`) as { path?: unknown; blob?: unknown });
        if (typeof head?.path !== 'string' || typeof head.blob !== 'string' || !line.endsWith('}')) throw new Error('not an entry');
        if (shardOf(head.path) === shard) entries.set(`${head.path}\0${head.blob}`, { path: head.path, blob: head.blob, line });
      }
    } catch {
      // A missing, truncated or foreign shard holds nothing: its files are computed again.
      entries.clear();
      this.dirtyShards.add(shard);
    }
    return entries;
  }

  /**
   * The lines of a shard file by entry, read again when it is saved (under the cache lock), so an
   * entry this run did not set is written back as it stands instead of serialised again. A line
   * holds the facts of its path and blob under this key whichever run wrote it (a later one may
   * have computed more of them), so taking it is as good as the entry this run read.
   */
  private shardLines(shard: number): Map<string, string> {
    const lines = new Map<string, string>();
    try {
      const text = readRegularFile(path.join(this.dir, shardName(shard)), 'cache').toString('utf8').split('\n');
      if ((JSON.parse(text[0]!) as { key?: string }).key !== this.key) return lines;
      for (const line of text.slice(1)) {
        const at = line.indexOf(FACTS_KEY);
        if (at === -1) continue;
        const { path: relPath, blob } = JSON.parse(`${line.slice(0, at)}}`) as { path?: unknown; blob?: unknown };
        if (typeof relPath === 'string' && typeof blob === 'string') lines.set(`${relPath}\0${blob}`, line);
      }
    } catch {
      // Missing or unreadable: every entry is serialised.
    }
    return lines;
  }

  /**
   * Writes what changed, under the cache lock (a save that finds another in progress leaves
   * the cache to it). Each shard keeps the entries this run used, and for their paths one
   * other version too (the staged and the committed copy of a lesson both stay); the entries of
   * paths it did not use stay while their files exist. Never
   * throws: a cache that cannot be written only costs time on the next run.
   */
  async save(): Promise<void> {
    if (!this.dirty && this.dirtyShards.size === 0 && this.statRun === undefined && this.pinsRun === undefined) return;
    try {
      // Refused before anything is created (a lock folder too) when .lessons/ leads outside.
      pathInside(this.root, `${FILE_CACHE_DIR}/${META}`);
      ensureStateDir(this.root);
      await withLock(this.root, 'cache', () => this.write(), { timeoutMs: SAVE_LOCK_MS });
    } catch {
      // Busy or not writable: the next run computes again what this one could not keep.
    }
  }

  private write(): void {
    if (this.olderFormat) {
      // Format 1 kept 64 shards named `NN.jsonl`.
      for (const name of fs.readdirSync(this.dir)) if (/^[0-9a-f]{2}\.jsonl$/.test(name)) fs.rmSync(pathInside(this.root, `${FILE_CACHE_DIR}/${name}`), { force: true });
    }
    const usedPaths = new Set([...this.used, ...this.listed].map((id) => id.slice(0, id.indexOf('\0'))));
    // Which versions of a path stay, when it has more than two: set in this run, then got, then listed, then the rest.
    const rank = (id: string): number => (this.setInRun.has(id) ? 3 : this.used.has(id) ? 2 : this.listed.has(id) ? 1 : 0);
    for (const shard of this.dirtyShards) {
      // A path this run did not use keeps what the shard holds while its file is there: a run that
      // reads a few files (the guard, a capture) must not evict the facts of the others, nor
      // lessons/index.json's scan (which the next scan of a new index version starts from). A
      // path gone from the working tree (deleted, renamed) is dropped.
      const present = new Map<string, boolean>();
      const there = (relPath: string): boolean => present.get(relPath) ?? present.set(relPath, fs.existsSync(path.join(this.root, relPath))).get(relPath)!;
      const entries = [...this.shard(shard).entries()].filter(([id, entry]) => !this.volatile.has(id) && (usedPaths.has(entry.path) || there(entry.path)));
      const kept = new Map<string, number>();
      const lines: string[] = [JSON.stringify({ key: this.key, format: FORMAT })];
      entries.sort(([a, x], [b, y]) => rank(b) - rank(a) || compareStrings(x.path, y.path) || compareStrings(x.blob, y.blob));
      const chosen = entries.filter(([, entry]) => {
        const count = kept.get(entry.path) ?? 0;
        kept.set(entry.path, count + 1);
        return count < 2;
      });
      chosen.sort(([, x], [, y]) => compareStrings(x.path, y.path) || compareStrings(x.blob, y.blob));
      const onDisk = this.shardLines(shard);
      for (const [id, entry] of chosen) lines.push((this.setInRun.has(id) ? undefined : (onDisk.get(id) ?? entry.line)) ?? JSON.stringify({ path: entry.path, blob: entry.blob, facts: entry.facts }));
      writeInRepo(this.root, `${FILE_CACHE_DIR}/${shardName(shard)}`, `${lines.join('\n')}\n`, { durable: false });
    }
    // A file changed in the last seconds may change again within its mtime's clock tick after it
    // was hashed, without its stat showing it (a coarse file system clock): such entries are
    // kept marked, so the next run hashes them again (git's "racily clean" entries).
    const recent = BigInt(Date.now() - RACY_MS) * 1_000_000n;
    const marked = (table: StatTable): StatTable => {
      const run: StatTable = {};
      for (const [relPath, [blob, identity]] of Object.entries(table)) run[relPath] = BigInt(identity.split(':')[1]!) >= recent ? [blob, `racy:${identity}`] : [blob, identity];
      return run;
    };
    if (this.statRun !== undefined) {
      const run = marked(this.statRun);
      // The run's stats over the old ones: a path the run did not look at keeps its entry.
      const { base, delta: over } = this.statHead();
      const delta = { ...over, ...run };
      if (base !== undefined && Object.keys(delta).length <= Math.max(STATS_DELTA_MIN, base.size / 50)) {
        writeInRepo(this.root, `${FILE_CACHE_DIR}/${STATS_DELTA}`, JSON.stringify({ key: this.key, base: base.id, files: delta }), { durable: false });
      } else {
        const id = randomBytes(8).toString('hex');
        const files = { ...this.statTable(), ...run };
        // The size in the head: a later save finds the base's id and size without parsing it.
        writeInRepo(this.root, `${FILE_CACHE_DIR}/${STATS}`, JSON.stringify({ key: this.key, id, size: Object.keys(files).length, files }), { durable: false });
        // Named for another base now: removed so that it is not read in vain.
        fs.rmSync(pathInside(this.root, `${FILE_CACHE_DIR}/${STATS_DELTA}`), { force: true });
      }
    }
    const pins = { ...this.meta.pins, ...(this.pinsRun && marked(this.pinsRun)) };
    const meta: Meta = { format: FORMAT, key: this.key, memos: this.meta.memos, ...(Object.keys(pins).length > 0 ? { pins } : {}) };
    // Last, so its mtime is the cache's write time: every stat recorded above is older.
    writeInRepo(this.root, `${FILE_CACHE_DIR}/${META}`, JSON.stringify(meta), { durable: false });
  }
}
