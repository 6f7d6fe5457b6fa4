import fs from 'node:fs';
import path from 'node:path';
import { toLesson } from '../lesson/parse.js';
import { pathInside } from '../io/inside.js';
import { STATE_DIR } from '../io/repo.js';
import type { LoadedLesson } from '../lesson/load.js';
import type { Finding } from '../lint/finding.js';
import type { SchemaError } from '../schema/validate.js';
import type { SecretMatch } from './secrets.js';

/**
 * What the guard derives from one lesson file's bytes alone — the parsed lesson, its parse
 * problems, its schema errors, its secret matches — memoised by content under .lessons/cache,
 * so a commit re-parses only the files it changes. Every entry is a pure function of the
 * file's content, its path and the code's version: the results equal an uncached run.
 */
export interface CachedFile {
  /** The parsed file; the Lesson is derived from it again with toLesson (cheaper than storing both). */
  loaded?: { folderLevel: LoadedLesson['folderLevel']; data: Record<string, unknown>; body: string; keyLines: [string, number][]; frontmatter: string };
  problems: Finding[];
  schemaErrors?: SchemaError[];
  /** Matches of the rule set with this digest, before the allowlist. */
  secrets?: { digest: string; matches: Omit<SecretMatch, 'file'>[] };
}

interface CacheFile {
  version: string;
  policies: string[];
  files: Record<string, CachedFile>;
}

export const CACHE_FILE = `${STATE_DIR}/cache/guard-files.json`;

/** Only plain JSON values survive the round trip through the cache file unchanged. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    return (proto === Object.prototype || proto === null) && Object.values(value as object).every(isPlainJson);
  }
  return false;
}

export class LessonCache {
  private readonly root: string;
  private readonly file: string;
  private readonly version: string;
  private data: CacheFile;
  private used = new Set<string>();
  /** Entries kept for this run only: their frontmatter would not survive JSON (`.inf`, `.nan`). */
  private volatile = new Set<string>();
  /** One LoadedLesson per key and run: base and head share the lessons a change leaves alone. */
  private loadedByKey = new Map<string, LoadedLesson | undefined>();
  private dirty = false;

  /** `version` names the code and schemas: a cache from another version is ignored. */
  constructor(root: string, version: string) {
    this.root = root;
    this.file = path.join(root, CACHE_FILE);
    this.version = version;
    this.data = { version, policies: [], files: {} };
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as CacheFile;
      if (parsed.version === version && parsed.files && Array.isArray(parsed.policies)) this.data = parsed;
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
  }

  get(key: string): CachedFile | undefined {
    const entry = this.data.files[key];
    if (entry) this.used.add(key);
    return entry;
  }

  set(key: string, entry: CachedFile): void {
    if (entry.loaded && !isPlainJson(entry.loaded.data)) this.volatile.add(key);
    this.data.files[key] = entry;
    this.used.add(key);
    this.dirty = true;
  }

  /** The lesson of a cached entry (the key names the path, so one object serves every side). */
  lessonOf(key: string, entry: CachedFile, relPath: string): LoadedLesson | undefined {
    if (!this.loadedByKey.has(key)) this.loadedByKey.set(key, toLoaded(entry, relPath));
    return this.loadedByKey.get(key);
  }

  /** Marks an entry as changed after a gate added to it. */
  touch(): void {
    this.dirty = true;
  }

  policyValidated(digest: string): boolean {
    return this.data.policies.includes(digest);
  }

  rememberPolicy(digest: string): void {
    this.data.policies = [digest];
    this.dirty = true;
  }

  /** Writes the entries this run used (older ones are dropped, so the file stays the size of the tree). */
  save(): void {
    const unused = Object.keys(this.data.files).some((key) => !this.used.has(key));
    if (!this.dirty && !unused) return;
    const files: Record<string, CachedFile> = {};
    for (const key of this.used) if (this.data.files[key] && !this.volatile.has(key)) files[key] = this.data.files[key]!;
    // Temp file and rename, without fsync: a cache lost in a crash is only rebuilt.
    let temp: string | undefined;
    try {
      // A .lessons/ linked out of the repository is refused like every other write.
      const file = pathInside(this.root, CACHE_FILE);
      temp = `${file}.${process.pid}.tmp`;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(temp, JSON.stringify({ version: this.version, policies: this.data.policies, files }));
      fs.renameSync(temp, file);
    } catch {
      if (temp) fs.rmSync(temp, { force: true });
      // A cache that cannot be written only costs time on the next run.
    }
  }
}

export function toLoaded(entry: CachedFile, relPath: string): LoadedLesson | undefined {
  if (!entry.loaded) return undefined;
  const { folderLevel, data, body, keyLines, frontmatter } = entry.loaded;
  return { lesson: toLesson(data, body, folderLevel), path: relPath, folderLevel, parsed: { data, body, keyLines: new Map(keyLines), frontmatter } };
}

export function fromLoaded(loaded: LoadedLesson | undefined, problems: Finding[]): CachedFile {
  if (!loaded) return { problems };
  const { folderLevel, parsed } = loaded;
  return { loaded: { folderLevel, data: parsed.data, body: parsed.body, keyLines: [...parsed.keyLines], frontmatter: parsed.frontmatter }, problems };
}
