/**
 * Selection of lessons for a text (a prompt, a question, a task) behind ONE interface,
 * `selectLessons`: everything else in the hooks, the MCP server and `lessons ask` depends on
 * this signature, not on how it ranks. For now it is a plain keyword match over the index;
 * the preflight engine (src/preflight/) replaces the body.
 */
import type { IndexEntry } from '../index/build.js';
import type { Level, Severity, Status } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { STOPWORDS } from '../util/words.js';
import { readIndexEntries } from './index-read.js';
import { keywordMatches, matchTriggers } from './triggers.js';

export interface SelectOptions {
  task: string;
  paths?: string[] | undefined;
  tool?: string | undefined;
  command?: string | undefined;
  limit?: number | undefined;
}

/** A selected lesson, in the shape of `lessons preflight --json` (SPEC §5). */
export interface Selected {
  id: string;
  level: Level;
  status: Status;
  severity: Severity;
  title: string;
  path: string;
  score: number;
  reasons: string[];
  checklist: string[];
}

export async function selectLessons(root: string, options: SelectOptions): Promise<Selected[]> {
  const entries = readIndexEntries(root) ?? (await entriesFromTree(root));
  return rankByKeywords(entries, options);
}

async function entriesFromTree(root: string): Promise<IndexEntry[]> {
  const { loadLessons } = await import('../lesson/load.js');
  const { buildIndex } = await import('../index/build.js');
  return buildIndex(loadLessons(root).lessons).lessons;
}

/** Content words of a text by their crude stem (so `releasing` meets `release`): stem -> first word seen. */
export function stemWords(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    const stem = word.length > 6 ? word.slice(0, 6) : word.replace(/s$/, '');
    if (!result.has(stem)) result.set(stem, word);
  }
  return result;
}

export function stems(text: string): Set<string> {
  return new Set(stemWords(text).keys());
}

export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 1.5, high: 1.25, medium: 1, low: 0.8 };
const STATUS_WEIGHT: Record<Status, number> = { canonical: 1.2, validated: 1, candidate: 0.7, retired: 0 };
const LEVEL_WEIGHT: Record<Level, number> = { principle: 1.1, pattern: 1.05, case: 1 };

/** The keyword ranking: pure, deterministic (score, then id). Below the floor nothing is returned. */
export function rankByKeywords(entries: readonly IndexEntry[], options: SelectOptions): Selected[] {
  const query = stems(options.task);
  const selected: Selected[] = [];
  for (const entry of entries) {
    if (entry.status === 'retired') continue;
    const reasons: string[] = [];
    let score = 0;
    let strong = 0;
    for (const keyword of entry.triggers.keywords) {
      if (keywordMatches(keyword, options.task)) {
        score += 3;
        strong++;
        reasons.push(`keyword "${keyword}"`);
      }
    }
    const matched = new Set<string>();
    let named = 0;
    const weigh = (field: string, text: string, weight: number): void => {
      const hits = [...stemWords(text)].filter(([stem]) => query.has(stem) && !matched.has(stem));
      for (const [stem] of hits) matched.add(stem);
      if (weight >= 2) named += hits.length;
      if (hits.length > 0) {
        score += hits.length * weight;
        reasons.push(`${field}: ${hits.map(([, word]) => word).join(', ')}`);
      }
    };
    weigh('title', entry.title, 2);
    weigh('tags', entry.tags.join(' '), 2);
    weigh('summary', entry.summary, 0.5);
    weigh('checklist', entry.checklist.join(' '), 0.5);
    const trigger = matchTriggers(entry.triggers, { tool: options.tool, paths: options.paths, command: options.command });
    if (trigger.matched) {
      score += 3;
      strong++;
      reasons.push(...trigger.reasons);
    }
    // The floor: a keyword or trigger match, or two words of the task of which at least one is
    // in the title or tags. Words found only in summaries and checklists are too weak alone.
    if (strong === 0 && (matched.size < 2 || named === 0)) continue;
    score *= SEVERITY_WEIGHT[entry.severity] * STATUS_WEIGHT[entry.status] * LEVEL_WEIGHT[entry.level];
    selected.push({
      id: entry.id,
      level: entry.level,
      status: entry.status,
      severity: entry.severity,
      title: entry.title,
      path: entry.path,
      score: Math.round(score * 1000) / 1000,
      reasons,
      checklist: entry.checklist,
    });
  }
  selected.sort((a, b) => b.score - a.score || compareStrings(a.id, b.id));
  return selected.slice(0, options.limit ?? 5);
}
