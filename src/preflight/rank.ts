import { LEVELS, SEVERITIES, SOURCES, STATUSES } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { expandTerm } from './expand.js';
import { kthLargest, propagateLineage, type Via } from './lineage.js';
import { isHookMode, type Query } from './query.js';
import { FIELD_BIT, META, META_BYTES, NO_DATE, NO_PROJECT, type DocMeta, type SearchIndex } from './search-index.js';
import { matchTriggers, type TriggerMatch } from './triggers.js';

/**
 * Ranking: how well a lesson's text answers the task (BM25 over its fields, with prefix,
 * fuzzy and synonym matches at lower weights), raised by context-trigger matches, and
 * scaled by what the lesson is: level, severity, confidence, transferability, status,
 * source, occurrences, how recently it was validated, project. All functions here are pure:
 * the search index, the query, the policy and `now` are their whole input.
 */

export const WEIGHTS = {
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
  /**
   * Coordination (as in Lucene's classic coord factor): a lesson that accounts for more of
   * the task's words outranks one that matches a single word many times.
   */
  coordination: { floor: 0.6, power: 0.5 },
  summaryStrength: 0.7,
  checklistStrength: 0.5,
  tagOverlap: 0.1,
  keywordMatch: 0.1,
  project: { same: 1.2, other: 0.85 },
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
  via: Via | undefined;
  meta: DocMeta;
  words: WordMatch[];
  trigger: TriggerMatch | undefined;
}

/** How much a match says about the lesson's subject: its title, tags and trigger keywords name it; its checklist only mentions. */
function fieldStrength(bits: number): number {
  if (bits & (FIELD_BIT.title | FIELD_BIT.tags | FIELD_BIT.keywords)) return 1;
  return bits & (FIELD_BIT.summary | FIELD_BIT.tagWords) ? WEIGHTS.summaryStrength : WEIGHTS.checklistStrength;
}

function idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * The part of the score that says what kind of lesson this is, independent of the task:
 * level, severity, status, source, confidence, transferability, occurrences, recency of
 * validation, project. Reads the index's metadata table directly (it runs for every
 * candidate, thousands on a large corpus).
 */
export function metaScorer(index: SearchIndex, query: Pick<Query, 'project'>, policy: Policy, now: Date): (doc: number) => number {
  const level = Float64Array.from(LEVELS, (l) => WEIGHTS.level[l]);
  const status = Float64Array.from(STATUSES, (s) => WEIGHTS.status[s]);
  const severity = Float64Array.from(SEVERITIES, (s) => WEIGHTS.severity[s]);
  const source = Float64Array.from(SOURCES, (s) => WEIGHTS.source[s]);
  const today = Math.floor(now.getTime() / 86_400_000);
  const staleDays = Math.max(1, policy.lessons.stale_after_days);
  const project = query.project === null ? -2 : index.projectCode(query.project);
  const view = index.docCount > 0 ? index.metaView : new DataView(new ArrayBuffer(0));
  const clamp = (v: number): number => Math.min(5, Math.max(1, v));
  return (doc) => {
    const at = doc * META_BYTES;
    const occurrences = view.getUint16(at + META.occurrences, true);
    const day = view.getInt32(at + META.validatedDay, true);
    const age = day === NO_DATE ? staleDays : Math.max(0, today - day);
    let factor =
      level[view.getUint8(at + META.level)]! *
      status[view.getUint8(at + META.status)]! *
      severity[view.getUint8(at + META.severity)]! *
      source[view.getUint8(at + META.source)]! *
      (0.8 + 0.05 * clamp(view.getUint8(at + META.confidence))) *
      (0.925 + 0.025 * clamp(view.getUint8(at + META.transferability))) *
      // Frequency is loud: a lesson seen 8 times counts 30% more than one seen once.
      (1 + 0.1 * Math.min(3, Math.log2(Math.max(1, occurrences)))) *
      (1 - 0.1 * Math.min(1, age / staleDays));
    if (project !== -2) {
      const own = view.getUint16(at + META.project, true);
      if (own !== NO_PROJECT) factor *= own === project ? WEIGHTS.project.same : WEIGHTS.project.other;
    }
    return factor;
  };
}

/** Lessons past this rank are never shown; only these get a full record of their matches. */
const RANKED_MAX = 200;

interface WordState {
  word: string;
  fromTask: boolean;
  idf: number;
  expansions: { term: string; kind: WordMatch['kind'] }[];
  /** Per lesson: which expansion matched best (-1: none) and its field bits. */
  expansion: Int16Array;
  fields: Uint8Array;
}

/** Per-lesson sums over the task's words, in arrays indexed by lesson number. */
interface TextScores {
  states: WordState[];
  text: Float64Array;
  coverage: Float64Array;
  tags: Uint8Array;
  keywords: Uint8Array;
  docs: number[];
}

/**
 * One pass over the postings of every expansion of every task word. A word counts once per
 * lesson, by its best expansion; its coverage is its idf times its best match quality.
 */
function scoreText(index: SearchIndex, query: Query): TextScores {
  const n = index.docCount;
  const dictionary = query.terms.length > 0 ? index.terms : [];
  const maxIdf = idf(n, 0);
  const byWord = new Map<string, Query['terms']>();
  for (const qt of query.terms) byWord.set(qt.word, [...(byWord.get(qt.word) ?? []), qt]);
  const weighted = new Float64Array(n);
  const quality = new Float32Array(n);
  const scores: TextScores = { states: [], text: new Float64Array(n), coverage: new Float64Array(n), tags: new Uint8Array(n), keywords: new Uint8Array(n), docs: [] };
  const isCandidate = new Uint8Array(n);
  for (const [word, terms] of byWord) {
    const state: WordState = { word, fromTask: terms.some((t) => t.from === 'task'), idf: maxIdf, expansions: [], expansion: new Int16Array(n).fill(-1), fields: new Uint8Array(n) };
    const touched: number[] = [];
    for (const qt of terms) {
      for (const expansion of expandTerm(dictionary, qt.term)) {
        if (state.expansions.length >= 0x7fff) break;
        const postings = index.postings(expansion.index);
        if (qt.from === 'task' && expansion.kind === 'exact') state.idf = idf(n, postings.docs.length);
        const id = state.expansions.push({ term: expansion.term, kind: qt.from === 'synonym' ? 'synonym' : expansion.kind }) - 1;
        const scoreWeight = qt.weight * expansion.weight;
        const qualityWeight = (qt.from === 'synonym' ? WEIGHTS.synonymCoverage : qt.weight) * expansion.weight;
        for (let i = 0; i < postings.docs.length; i++) {
          const doc = postings.docs[i]!;
          const w = scoreWeight * postings.scores[i]!;
          const q = qualityWeight * fieldStrength(postings.fields[i]!);
          const first = state.expansion[doc] === -1;
          if (first) touched.push(doc);
          if (first || w > weighted[doc]!) {
            weighted[doc] = w;
            state.expansion[doc] = id;
            state.fields[doc] = postings.fields[i]!;
          }
          if (first || q > quality[doc]!) quality[doc] = q;
        }
      }
    }
    if (!state.fromTask) state.idf = 0;
    // Fold this word into the sums now, so the scratch arrays serve the next word.
    for (const doc of touched) {
      if (isCandidate[doc] === 0) {
        isCandidate[doc] = 1;
        scores.docs.push(doc);
      }
      scores.text[doc]! += weighted[doc]!;
      scores.coverage[doc]! += state.idf * Math.min(1, quality[doc]!);
      const bits = state.fields[doc]!;
      if (state.expansions[state.expansion[doc]!]!.kind !== 'synonym' && (bits & (FIELD_BIT.tags | FIELD_BIT.tagWords)) !== 0) scores.tags[doc]!++;
      if ((bits & FIELD_BIT.keywords) !== 0) scores.keywords[doc]!++;
    }
    scores.states.push(state);
  }
  // Coverage is a share of the task's information: divide by the idf of all its words.
  const totalIdf = scores.states.reduce((sum, state) => sum + state.idf, 0);
  for (const doc of scores.docs) scores.coverage[doc] = totalIdf > 0 ? scores.coverage[doc]! / totalIdf : 0;
  return scores;
}

function wordMatches(states: readonly WordState[], doc: number): WordMatch[] {
  const matches: WordMatch[] = [];
  for (const state of states) {
    const id = state.expansion[doc]!;
    if (id >= 0) matches.push({ word: state.word, term: state.expansions[id]!.term, kind: state.expansions[id]!.kind, fields: state.fields[doc]! });
  }
  return matches;
}

/** Scores every lesson the task's words reach, and every lesson whose context triggers match; best first. */
export function rankLessons(index: SearchIndex, query: Query, policy: Policy, now: Date): RankedLesson[] {
  const { states, text, coverage, tags, keywords, docs } = scoreText(index, query);
  const isCandidate = new Set(docs);
  const add = (doc: number): void => {
    if (!isCandidate.has(doc)) {
      isCandidate.add(doc);
      docs.push(doc);
    }
  };
  const via = propagateLineage(index, docs, text, coverage, add);
  const triggers = new Map<number, TriggerMatch>();
  if (query.paths.length > 0 || query.tool !== null || query.command !== null) {
    for (const row of index.triggers()) {
      const match = matchTriggers(row, query);
      if (match) {
        triggers.set(row.doc, match);
        add(row.doc);
      }
    }
  }
  const hookMode = isHookMode(query);
  const scores = new Float64Array(index.docCount);
  const scoreOf = metaScorer(index, query, policy, now);
  const scored: number[] = [];
  for (const doc of docs) {
    const trigger = triggers.get(doc);
    if (hookMode && !trigger) continue;
    const triggerScore = trigger ? (trigger.kinds.length === 1 && trigger.kinds[0] === 'tool' ? WEIGHTS.toolOnly : WEIGHTS.trigger) : 0;
    scores[doc] =
      (text[doc]! + triggerScore) *
      (WEIGHTS.coordination.floor + coverage[doc]!) ** WEIGHTS.coordination.power *
      (1 + WEIGHTS.tagOverlap * tags[doc]!) *
      (1 + WEIGHTS.keywordMatch * keywords[doc]!) *
      scoreOf(doc);
    scored.push(doc);
  }
  const threshold = kthLargest(Float64Array.from(scored, (doc) => scores[doc]!), RANKED_MAX);
  const kept = scored.filter((doc) => scores[doc]! >= threshold || triggers.has(doc));
  kept.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return kept.map((doc) => ({
    doc,
    score: scores[doc]!,
    text: text[doc]!,
    coverage: coverage[doc]!,
    via: via.get(doc),
    meta: index.meta(doc),
    words: wordMatches(states, doc),
    trigger: triggers.get(doc),
  }));
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
