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
import { INDEX_VERSION, serializeIndex, type IndexEntry } from './build.js';

export type IndexMergeResult = { text: string; conflicts: [] } | { text: undefined; conflicts: string[] };

/** Lists the index derives from other lessons: merged as sets, so both sides' additions stay. */
const SET_FIELDS = new Set<string>(['promoted_from', 'promoted_into']);

type Entries = Map<string, IndexEntry>;

/** The entries of one side; undefined when the text is not an index (conflict markers, another version). */
export function parseIndexText(text: string): Entries | undefined {
  if (text.trim() === '') return new Map();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const index = data as { version?: unknown; lessons?: unknown };
  if (index === null || typeof index !== 'object' || index.version !== INDEX_VERSION || !Array.isArray(index.lessons)) return undefined;
  const entries: Entries = new Map();
  for (const entry of index.lessons as IndexEntry[]) {
    if (entry === null || typeof entry !== 'object' || typeof entry.id !== 'string') return undefined;
    entries.set(entry.id, entry);
  }
  return entries;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

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
  const keys = [...Object.keys(ours), ...Object.keys(theirs).filter((key) => !(key in ours))];
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
  const [base, ours, theirs] = [baseText, oursText, theirsText].map(parseIndexText);
  if (!ours || !theirs) return { text: undefined, conflicts: [`${!ours ? 'our' : 'their'} side is not an index of version ${INDEX_VERSION}`] };
  const baseEntries = base ?? new Map<string, IndexEntry>();
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
    else if (!same(b, kept)) conflicts.push(`${id}: deleted on one side, changed on the other`);
  }
  if (conflicts.length > 0) return { text: undefined, conflicts: conflicts.sort(compareStrings) };
  lessons.sort((a, b) => compareStrings(a.id, b.id));
  return { text: serializeIndex({ version: INDEX_VERSION, lessons }), conflicts: [] };
}
