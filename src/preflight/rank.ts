import type { Policy } from '../policy/policy.js';
import { isHookMode, type Query } from './query.js';
import { dayNumber, FIELD_BIT, NO_DATE, type DocMeta, type SearchIndex } from './search-index.js';
import { matchTriggers, type TriggerMatch } from './triggers.js';

/**
 * Ranking: how well a lesson's text answers the task (BM25 over its fields, with prefix,
 * fuzzy and synonym matches at lower weights), raised by context-trigger matches, and
 * scaled by what the lesson is: level, severity, confidence, transferability, status,
 * source, occurrences, how recently it was validated, project. All functions here are pure:
 * the search index, the query, the policy and `now` are their whole input.
 */

export const WEIGHTS = {
  prefix: 0.4,
  fuzzy: [1, 0.45, 0.25] as readonly number[],
  /** Text score a path or command trigger match is worth, in BM25 units. */
  trigger: 6,
  toolOnly: 1.5,
  /**
   * Coverage: the share of the task's information (idf-weighted words) a lesson accounts for.
   * Some lesson near the top must cover `taskCoverage` for the task to match anything at all;
   * each lesson shown must cover `minCoverage`.
   */
  taskCoverage: 0.24,
  minCoverage: 0.15,
  /** ... and score at least this share of the best lesson's score. */
  relativeFloor: 0.3,
  level: { principle: 1.2, pattern: 1.1, case: 1 },
  severity: { low: 0.9, medium: 1, high: 1.1, critical: 1.25 },
  status: { candidate: 0.85, validated: 1, canonical: 1.1, retired: 0 },
  source: { curated: 1, auto: 0.8 },
  /** A synonym of a task word covers that word this much (it scores at the synonym's query weight). */
  synonymCoverage: 0.7,
  summaryStrength: 0.7,
  checklistStrength: 0.5,
  tagOverlap: 0.1,
  keywordMatch: 0.1,
  project: { same: 1.2, other: 0.85 },
  /**
   * Relevance flows along promotion links: the pattern distilled from a matching case, and
   * the principle above that pattern, apply to the task too (and a matching pattern's cases
   * support it). Share of the linked lesson's text score and coverage passed on, per hop.
   */
  lineage: { up: 0.5, down: 0.3, coverageUp: 0.9, coverageDown: 0.75, sources: 50 },
} as const;

/** How one task word matched a lesson. */
export interface WordMatch {
  word: string;
  /** The dictionary term that matched best and how. */
  term: string;
  kind: 'exact' | 'prefix' | 'fuzzy' | 'synonym';
  fields: number;
}

export interface RankedLesson {
  doc: number;
  score: number;
  /** Text relevance: its own, plus what flows to it along promotion links. */
  text: number;
  coverage: number;
  /** The linked lesson most of the inherited relevance came from. */
  via: { doc: number; up: boolean } | undefined;
  meta: DocMeta;
  words: WordMatch[];
  trigger: TriggerMatch | undefined;
}

interface Expansion {
  index: number;
  term: string;
  weight: number;
  kind: 'exact' | 'prefix' | 'fuzzy';
}

function lowerBound(terms: readonly string[], value: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Levenshtein distance, or max + 1 as soon as it must exceed `max`. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row.push(value);
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/** Dictionary terms a query term stands for: itself, longer words it starts, near misspellings (same first letter). */
export function expandTerm(terms: readonly string[], term: string): Expansion[] {
  const result: Expansion[] = [];
  const at = lowerBound(terms, term);
  if (terms[at] === term) result.push({ index: at, term, weight: 1, kind: 'exact' });
  if (term.length >= 3) {
    for (let i = terms[at] === term ? at + 1 : at; i < terms.length && terms[i]!.startsWith(term) && result.length < 40; i++) {
      result.push({ index: i, term: terms[i]!, weight: WEIGHTS.prefix, kind: 'prefix' });
    }
  }
  const maxDistance = term.length >= 8 ? 2 : term.length >= 5 ? 1 : 0;
  if (maxDistance > 0) {
    const first = term[0]!;
    const from = lowerBound(terms, first);
    const to = lowerBound(terms, String.fromCharCode(first.charCodeAt(0) + 1));
    for (let i = from; i < to; i++) {
      const candidate = terms[i]!;
      if (Math.abs(candidate.length - term.length) > maxDistance || candidate.startsWith(term)) continue;
      const distance = boundedDistance(term, candidate, maxDistance);
      if (distance <= maxDistance) result.push({ index: i, term: candidate, weight: WEIGHTS.fuzzy[distance]!, kind: 'fuzzy' });
    }
  }
  return result;
}

/** How much a match says about the lesson's subject: its title, tags and trigger keywords name it; its checklist only mentions. */
function fieldStrength(bits: number): number {
  if (bits & (FIELD_BIT.title | FIELD_BIT.tags | FIELD_BIT.keywords)) return 1;
  return bits & (FIELD_BIT.summary | FIELD_BIT.tagWords) ? WEIGHTS.summaryStrength : WEIGHTS.checklistStrength;
}

function idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/** The part of the score that says what kind of lesson this is, independent of the task. */
export function metaFactor(meta: DocMeta, query: Pick<Query, 'project'>, policy: Policy, now: Date): number {
  let factor =
    WEIGHTS.level[meta.level] *
    WEIGHTS.severity[meta.severity] *
    WEIGHTS.status[meta.status] *
    WEIGHTS.source[meta.source] *
    (0.8 + 0.05 * Math.min(5, Math.max(1, meta.confidence))) *
    (0.925 + 0.025 * Math.min(5, Math.max(1, meta.transferability))) *
    // Frequency is loud: a lesson seen 8 times counts 30% more than one seen once.
    (1 + 0.1 * Math.min(3, Math.log2(Math.max(1, meta.occurrences))));
  const today = dayNumber(now.toISOString());
  const staleDays = Math.max(1, policy.lessons.stale_after_days);
  const age = meta.validatedDay === NO_DATE ? staleDays : Math.max(0, today - meta.validatedDay);
  factor *= 1 - 0.1 * Math.min(1, age / staleDays);
  if (query.project !== null && meta.project !== null) factor *= meta.project === query.project ? WEIGHTS.project.same : WEIGHTS.project.other;
  return factor;
}

interface WordState {
  word: string;
  idf: number;
  best: Map<number, { weighted: number; quality: number; match: WordMatch }>;
}

/** Scores every lesson the task's words reach, and every lesson whose context triggers match. */
export function rankLessons(index: SearchIndex, query: Query, policy: Policy, now: Date): RankedLesson[] {
  const dictionary = query.terms.length > 0 ? index.terms : [];
  const words = new Map<string, WordState>();
  const maxIdf = idf(index.docCount, 0);
  for (const qt of query.terms) {
    let state = words.get(qt.word);
    if (!state) words.set(qt.word, (state = { word: qt.word, idf: maxIdf, best: new Map() }));
    for (const expansion of expandTerm(dictionary, qt.term)) {
      const postings = index.postings(expansion.index);
      if (qt.from === 'task' && expansion.kind === 'exact') state.idf = idf(index.docCount, postings.docs.length);
      const kind = qt.from === 'synonym' ? 'synonym' : expansion.kind;
      for (let i = 0; i < postings.docs.length; i++) {
        const doc = postings.docs[i]!;
        const weighted = qt.weight * expansion.weight * postings.scores[i]!;
        const quality = (qt.from === 'synonym' ? WEIGHTS.synonymCoverage : qt.weight) * expansion.weight * fieldStrength(postings.fields[i]!);
        const current = state.best.get(doc);
        if (!current || weighted > current.weighted) {
          state.best.set(doc, {
            weighted,
            quality: Math.max(quality, current?.quality ?? 0),
            match: { word: qt.word, term: expansion.term, kind, fields: postings.fields[i]! },
          });
        } else if (quality > current.quality) current.quality = quality;
      }
    }
  }
  // Synonym-only words (a group phrase found in the task) carry no information of their own.
  const taskWords = [...words.values()].filter((w) => query.terms.some((t) => t.word === w.word && t.from === 'task'));
  const totalIdf = taskWords.reduce((sum, w) => sum + w.idf, 0);

  const candidates = new Map<number, RankedLesson>();
  const candidate = (doc: number): RankedLesson => {
    let ranked = candidates.get(doc);
    if (!ranked) candidates.set(doc, (ranked = { doc, score: 0, text: 0, coverage: 0, via: undefined, meta: index.meta(doc), words: [], trigger: undefined }));
    return ranked;
  };
  for (const state of words.values()) {
    const isTaskWord = taskWords.includes(state);
    for (const [doc, best] of state.best) {
      const ranked = candidate(doc);
      ranked.text += best.weighted;
      if (isTaskWord && totalIdf > 0) ranked.coverage += (state.idf * Math.min(1, best.quality)) / totalIdf;
      ranked.words.push(best.match);
    }
  }
  propagateLineage(index, candidates, candidate);
  if (query.paths.length > 0 || query.tool !== null || query.command !== null) {
    for (const row of index.triggers()) {
      const match = matchTriggers(row, query);
      if (match) candidate(row.doc).trigger = match;
    }
  }
  const hookMode = isHookMode(query);
  const result: RankedLesson[] = [];
  for (const ranked of candidates.values()) {
    if (hookMode && !ranked.trigger) continue;
    const tags = ranked.words.filter((w) => w.kind !== 'synonym' && (w.fields & (FIELD_BIT.tags | FIELD_BIT.tagWords)) !== 0).length;
    const keywords = ranked.words.filter((w) => (w.fields & FIELD_BIT.keywords) !== 0).length;
    const triggerScore = ranked.trigger
      ? ranked.trigger.kinds.includes('tool') && ranked.trigger.kinds.length === 1
        ? WEIGHTS.toolOnly
        : WEIGHTS.trigger
      : 0;
    ranked.score =
      (ranked.text + triggerScore) *
      (1 + WEIGHTS.tagOverlap * tags) *
      (1 + WEIGHTS.keywordMatch * keywords) *
      metaFactor(ranked.meta, query, policy, now);
    result.push(ranked);
  }
  return result.sort(compareRanked);
}

/** Two hops along promotion links (case -> pattern -> principle), from the best text matches only. */
function propagateLineage(index: SearchIndex, candidates: Map<number, RankedLesson>, candidate: (doc: number) => RankedLesson): void {
  const own = new Map([...candidates.values()].map((r) => [r.doc, { text: r.text, coverage: r.coverage }]));
  let current = own;
  for (let hop = 0; hop < 2; hop++) {
    const next = new Map<number, { text: number; coverage: number; via: { doc: number; up: boolean } }>();
    const sources = [...current.entries()].filter(([, v]) => v.text > 0).sort((a, b) => b[1].text - a[1].text || a[0] - b[0]).slice(0, WEIGHTS.lineage.sources);
    for (const [doc, value] of sources) {
      for (const link of index.lineage(doc)) {
        const text = value.text * (link.up ? WEIGHTS.lineage.up : WEIGHTS.lineage.down);
        const coverage = value.coverage * (link.up ? WEIGHTS.lineage.coverageUp : WEIGHTS.lineage.coverageDown);
        const best = next.get(link.doc);
        if (!best || text > best.text) next.set(link.doc, { text, coverage: Math.max(coverage, best?.coverage ?? 0), via: { doc, up: link.up } });
      }
    }
    const updated = new Map(own);
    for (const [doc, inherited] of next) {
      const mine = own.get(doc) ?? { text: 0, coverage: 0 };
      updated.set(doc, { text: mine.text + inherited.text, coverage: Math.max(mine.coverage, inherited.coverage) });
      const ranked = candidate(doc);
      ranked.text = mine.text + inherited.text;
      ranked.coverage = Math.max(mine.coverage, inherited.coverage);
      ranked.via = inherited.via;
    }
    current = updated;
  }
}

/** Highest score first; equal scores in lesson order (the index is sorted by id), so output is stable. */
export function compareRanked(a: RankedLesson, b: RankedLesson): number {
  return b.score - a.score || a.doc - b.doc;
}

/**
 * The relevance floor, over lessons in rank order: none pass unless one near the top covers
 * enough of the task; then those near the best score that cover enough pass. Trigger
 * matches always pass.
 */
export function aboveFloor(ranked: readonly RankedLesson[]): RankedLesson[] {
  const best = ranked[0]?.score ?? 0;
  const near = ranked.filter((r) => r.score >= WEIGHTS.relativeFloor * best);
  const taskMatches = near.some((r) => r.coverage >= WEIGHTS.taskCoverage && r.words.some((w) => fieldStrength(w.fields) === 1));
  return ranked.filter((r) => r.trigger !== undefined || (taskMatches && r.coverage >= WEIGHTS.minCoverage && r.score >= WEIGHTS.relativeFloor * best));
}
