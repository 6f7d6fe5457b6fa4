import fs from 'node:fs';
import path from 'node:path';
import { INDEX_FILE } from '../io/repo.js';
import { buildIndex, type IndexEntry } from '../index/build.js';
import { loadLessons } from '../lesson/load.js';
import { SEVERITIES } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import type { ReviewLesson } from './prompt.js';

/** The most lessons one review prompt carries. */
export const MAX_REVIEW_LESSONS = 8;

/**
 * The lessons a review of `text` (diff and commit messages) touching `paths` should check.
 * A plain keyword match over the index, standing in until preflight's selection is wired in:
 * words of a lesson's title, tags, trigger keywords and checklist that the change mentions.
 */
export async function selectForReview(root: string, text: string, paths: readonly string[]): Promise<ReviewLesson[]> {
  const entries = readIndex(root).filter((entry) => entry.status !== 'retired');
  const haystack = new Set(words(`${text}\n${paths.join('\n')}`));
  const scored = entries
    .map((entry) => ({ entry, score: score(entry, haystack, paths) }))
    .filter((item) => item.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        SEVERITIES.indexOf(b.entry.severity) - SEVERITIES.indexOf(a.entry.severity) ||
        compareStrings(a.entry.id, b.entry.id),
    );
  return scored.slice(0, MAX_REVIEW_LESSONS).map(({ entry }) => ({
    id: entry.id,
    title: entry.title,
    level: entry.level,
    severity: entry.severity,
    checklist: entry.checklist,
  }));
}

function readIndex(root: string): IndexEntry[] {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(root, INDEX_FILE), 'utf8')) as { lessons?: IndexEntry[] };
    if (Array.isArray(data.lessons)) return data.lessons;
  } catch {
    // No index yet, or an unreadable one: build it in memory from the lesson files.
  }
  return buildIndex(loadLessons(root).lessons).lessons;
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'are', 'was', 'not', 'every', 'each', 'one', 'same', 'its', 'when', 'before', 'after']);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word));
}

function score(entry: IndexEntry, haystack: Set<string>, paths: readonly string[]): number {
  const strong = [...entry.tags, ...entry.triggers.keywords].flatMap(words);
  const weak = [entry.title, ...entry.checklist].flatMap(words);
  let total = 0;
  for (const word of new Set(strong)) if (haystack.has(word)) total += 3;
  for (const word of new Set(weak)) if (haystack.has(word)) total += 1;
  const basenames = new Set(paths.map((p) => p.split('/').pop() ?? p));
  for (const pattern of entry.triggers.paths) {
    const last = pattern.split('/').pop() ?? pattern;
    if (!last.includes('*') && basenames.has(last)) total += 5;
  }
  // One shared common word is noise, not relevance.
  return total >= 2 ? total : 0;
}
