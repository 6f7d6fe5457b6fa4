/**
 * A three-way merge of lessons/index.json, for git's `lessons-index` merge driver. Git calls the
 * driver before it writes the merged lesson files, so the driver cannot rebuild the index from
 * the tree; it merges the three indexes lesson by lesson instead. Each entry is derived from one
 * lesson file, so where git merges the files, merging their entries the same way gives the
 * index a rebuild would. Where both sides changed one field of one lesson differently, the
 * lesson file itself needs a person: the driver reports a conflict and `lessons index` rebuilds
 * the index once the files are resolved.
 */
import { compareStrings, uniqueSorted } from '../util/compare.js';
import { validateAgainst } from '../schema/validate.js';
import { INDEX_VERSION, serializeIndex, type IndexEntry } from './build.js';

/** How the driver's messages name the three versions git passes (%O %A %B). */
const SIDE_NAMES = ['the common ancestor\'s index', 'our index', 'their index'];

export type IndexMergeResult = { text: string; conflicts: [] } | { text: undefined; conflicts: string[] };

/** Lists the index derives from other lessons: merged as sets, so both sides' additions stay. */
const SET_FIELDS = new Set<string>(['promoted_from', 'promoted_into']);

type Entries = Map<string, IndexEntry>;

type Side = { entries: Entries } | { problem: string };

const FOLDERS: Record<string, string> = { case: 'cases', pattern: 'patterns', principle: 'principles' };

/** Where a lesson of this id and level lives; an entry elsewhere (`/etc/passwd`, `../..`) is not one `lessons index` writes. */
function expectedPath(entry: IndexEntry): string {
  return `lessons/${FOLDERS[entry.level] ?? ''}/${entry.id}.md`;
}

/**
 * The entries of one side, or why it is not an index: not JSON (conflict markers), another
 * version, an entry the index schema rejects, an entry whose path is not its id's file, or a
 * repeated id. `empty` is what an empty text means: no lessons for the common ancestor (git
 * passes an empty file when both sides added the index), but for our or their side a
 * truncated file, never "every lesson deleted".
 */
export function parseIndexSide(text: string, empty: 'no lessons' | 'invalid'): Side {
  if (text.trim() === '') return empty === 'no lessons' ? { entries: new Map() } : { problem: 'is empty' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'is not JSON' };
  }
  const index = data as { version?: unknown; lessons?: unknown };
  if (index === null || typeof index !== 'object' || index.version !== INDEX_VERSION) return { problem: `is not an index of version ${INDEX_VERSION}` };
  const errors = validateAgainst('index', data);
  if (errors.length > 0) return { problem: `does not match the index schema (${errors[0]!.field || 'the file'}: ${errors[0]!.message})` };
  const entries: Entries = new Map();
  for (const entry of index.lessons as IndexEntry[]) {
    if (entry.path !== expectedPath(entry)) return { problem: `has an entry ${JSON.stringify(entry.id)} whose path ${JSON.stringify(entry.path)} is not ${expectedPath(entry)}` };
    if (entries.has(entry.id)) return { problem: `lists ${entry.id} twice` };
    entries.set(entry.id, entry);
  }
  return { entries };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** An entry without its `after`, which changes when a neighbour comes or goes, not when its lesson does. */
const unplaced = (entry: IndexEntry): IndexEntry => ({ ...entry, after: undefined });

/** base ∪ changes: what either side added, minus what either side removed. */
function mergeSets(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const removed = new Set(base.filter((item) => !ours.includes(item) || !theirs.includes(item)));
  return uniqueSorted([...ours, ...theirs].filter((item) => !removed.has(item)));
}

/** The usual three-way rule, value by value: a side that did not change defers to the one that did. */
function pick<T>(base: T | undefined, ours: T | undefined, theirs: T | undefined): { value: T | undefined } | 'conflict' {
  if (same(ours, theirs)) return { value: ours };
  if (same(base, ours)) return { value: theirs };
  if (same(base, theirs)) return { value: ours };
  return 'conflict';
}

function mergeEntry(id: string, base: IndexEntry | undefined, ours: IndexEntry, theirs: IndexEntry, conflicts: string[]): IndexEntry {
  const merged: Record<string, unknown> = {};
  // `after` names the neighbour in each side's file: serializeIndex() writes the merged one from the order.
  const keys = [...Object.keys(ours), ...Object.keys(theirs).filter((key) => !(key in ours))].filter((key) => key !== 'after');
  for (const key of keys) {
    const [b, o, t] = [base, ours, theirs].map((entry) => (entry as unknown as Record<string, unknown> | undefined)?.[key]);
    if (SET_FIELDS.has(key) && Array.isArray(o) && Array.isArray(t)) {
      merged[key] = mergeSets(Array.isArray(b) ? (b as string[]) : [], o as string[], t as string[]);
      continue;
    }
    const chosen = pick(b, o, t);
    if (chosen === 'conflict') conflicts.push(`${id}: both sides changed ${key}`);
    else if (chosen.value !== undefined) merged[key] = chosen.value;
  }
  return merged as unknown as IndexEntry;
}

/** Merges the common ancestor's, our and their index texts; pure. */
export function mergeIndexTexts(baseText: string, oursText: string, theirsText: string): IndexMergeResult {
  const sides = [parseIndexSide(baseText, 'no lessons'), parseIndexSide(oursText, 'invalid'), parseIndexSide(theirsText, 'invalid')];
  const problems = sides.flatMap((side, i) => ('problem' in side ? [`${SIDE_NAMES[i]} ${side.problem}`] : []));
  if (problems.length > 0) return { text: undefined, conflicts: problems };
  const [baseEntries, ours, theirs] = sides.map((side) => (side as { entries: Entries }).entries) as [Entries, Entries, Entries];
  const conflicts: string[] = [];
  const lessons: IndexEntry[] = [];
  for (const id of uniqueSorted([...baseEntries.keys(), ...ours.keys(), ...theirs.keys()])) {
    const [b, o, t] = [baseEntries.get(id), ours.get(id), theirs.get(id)];
    if (!o && !t) continue; // deleted on both sides
    if (o && t) {
      lessons.push(mergeEntry(id, b, o, t, conflicts));
      continue;
    }
    // Present on one side only: added there, or deleted on the other.
    const kept = o ?? t!;
    if (!b) lessons.push(kept);
    else if (!same(unplaced(b), unplaced(kept))) conflicts.push(`${id}: deleted on one side, changed on the other`);
  }
  if (conflicts.length > 0) return { text: undefined, conflicts: conflicts.sort(compareStrings) };
  lessons.sort((a, b) => compareStrings(a.id, b.id));
  return { text: serializeIndex({ version: INDEX_VERSION, lessons }), conflicts: [] };
}
