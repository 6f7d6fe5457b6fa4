import { LEVELS, SEVERITIES, SOURCES, STATUSES } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { expandTerm, lowerBound } from './expand.js';
import { kthLargest, propagateLineage, type Via } from './lineage.js';
import type { Query } from './query.js';
import { FIELD_BIT, FIELDS, META, META_BYTES, NO_DATE, type Field, type LessonSignals, type PostingPart, type SearchIndex, type TriggerRow } from './search-index.js';
import { matchTriggers, type TriggerMatch } from './triggers.js';

/**
 * Ranking: how well a lesson's text answers the task (BM25 over its fields, with prefix,
 * fuzzy and thesaurus matches at lower weights), raised by trigger matches, and
 * scaled by what the lesson is: level, severity, confidence, transferability, status,
 * source, occurrences, how recently it was validated, project. All functions here are pure:
 * the search index, the query, the policy and `now` are their whole input.
 */

export const WEIGHTS = {
  /** Text score a path, command or keyword-phrase trigger match is worth, in BM25 units. */
  trigger: 6,
  /** Lessons past the first must score at least this share of the best lesson's score. */
  relativeFloor: 0.3,
  level: { principle: 1.2, pattern: 1.1, case: 1 },
  severity: { low: 0.9, medium: 1, high: 1.1, critical: 1.25 },
  status: { candidate: 0.85, validated: 1, canonical: 1.1, retired: 0 },
  source: { curated: 1, auto: 0.8 },
  /** A thesaurus relative of a task word scores at this share of the word itself. */
  related: 0.5,
  /**
   * Coordination (as in Lucene's classic coord factor): a lesson that accounts for more of
   * the task's concepts outranks one that matches a single word many times.
   */
  coordination: { floor: 0.6, power: 0.5 },
  tagOverlap: 0.1,
  keywordMatch: 0.1,
  /** A lesson of the project in play; one of another project is never ranked (inProject). */
  project: { same: 1.2 },
} as const;

/**
 * The relevance floor, in terms that mean the same on every corpus (src/preflight/RANKING.md).
 * A task concept's evidence for a lesson is informativeness x field strength x match quality,
 * each at most 1; a lesson passes with `evidence` in total, so never on one concept alone.
 */
export const FLOOR = {
  /** A concept contained in at most this share of the corpus's lessons is fully informative; commoner ones count less, one in every lesson nothing. */
  rareShare: 0.1,
  /** Below this many lessons a share cannot say how rare a word is: a small corpus is judged as if it had this many. */
  minCorpus: 20,
  /** The task matches something when its best lesson has this much evidence: two concepts that name the lesson's subject. */
  evidence: 2,
  /** Then every lesson with this much evidence and a score within reach of the best is shown. */
  lesson: 1,
  /** How much a match in each field says the lesson is about the word: its title, tags and keywords name its subject; its story only mentions things. */
  strength: { title: 1, tags: 1, keywords: 1, tagWords: 0.8, summary: 0.8, checklist: 0.6, body: 0.5 } satisfies Record<Field, number>,
  quality: { exact: 1, joined: 1, morph: 0.8, prefix: 0.5, fuzzy: 0.5, related: 0.6 },
  /** A stand-in for a task word (prefix, fuzzy or thesaurus match) counts only while at least this informative. */
  standIn: 0.5,
  /** Words of the command and paths are evidence at this share: they name what the call touches, often by structure (src, app, components) rather than subject. */
  context: 0.5,
  /** Words of a path's file name are evidence at this share: the name says what the file is about (nginx-configmap.yaml), its folders where it lives. */
  file: 1,
} as const;

/** How one query word matched a lesson. */
export interface WordMatch {
  word: string;
  /** The dictionary term that matched best and how. */
  term: string;
  kind: 'exact' | 'joined' | 'morph' | 'prefix' | 'fuzzy' | 'related';
  fields: number;
}

export interface RankedLesson {
  doc: number;
  score: number;
  /** Text relevance: its own, plus what flows to it along promotion links. */
  text: number;
  /** Relevance evidence the floor judges (FLOOR). */
  evidence: number;
  /** The linked lesson most of the inherited relevance came from. */
  via: Via | undefined;
  meta: LessonSignals;
  words: WordMatch[];
  trigger: TriggerMatch | undefined;
}

/** The strength of the strongest field among `bits`, for every combination of field bits. */
function strengthTable(): Float64Array {
  const table = new Float64Array(1 << FIELDS.length);
  for (let bits = 1; bits < table.length; bits++) {
    for (const field of FIELDS) if ((bits & FIELD_BIT[field]) !== 0) table[bits] = Math.max(table[bits]!, FLOOR.strength[field]);
  }
  return table;
}

/** The strength of the strongest field among `bits`. */
export function fieldStrength(bits: number): number {
  return strengthTable()[bits]!;
}

/**
 * How informative a term is in this corpus, from the share of lessons that contain it: 1 up
 * to FLOOR.rareShare, falling to 0 for a term in every lesson (of a corpus of at least
 * FLOOR.minCorpus lessons).
 */
export function informativeness(docCount: number, df: number): number {
  if (df <= 0) return 1;
  const share = df / Math.max(docCount, FLOOR.minCorpus);
  return Math.max(0, Math.min(1, Math.log(1 / share) / Math.log(1 / FLOOR.rareShare)));
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
  const sameProject = query.project === null ? undefined : index.projectMatch(query.project);
  const empty = new DataView(new ArrayBuffer(0));
  const { local, sources, localLessons } = index.docCount > 0 ? index.metaTables : { local: empty, sources: empty, localLessons: 0 };
  const clamp = (v: number): number => Math.min(5, Math.max(1, v));
  return (doc) => {
    const mine = doc < localLessons;
    const view = mine ? local : sources;
    const at = (mine ? doc : doc - localLessons) * META_BYTES;
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
    if (sameProject?.(doc) === 1) factor *= WEIGHTS.project.same;
    return factor;
  };
}

/**
 * The lessons that may not be shown whatever they match, or undefined when there are none to
 * look for: with a project in play, those of another project (policy `projects`; lessons of no
 * project are shown); with sources, a source's lesson whose id a local lesson has (the local one
 * is the lesson, lint says so).
 */
export function excluded(index: SearchIndex, query: Pick<Query, 'project'>): ((doc: number) => boolean) | undefined {
  const project = query.project === null || index.docCount === 0 ? undefined : index.projectMatch(query.project);
  if (project === undefined && !index.hasSources) return undefined;
  return (doc) => (project !== undefined && project(doc) < 0) || index.isShadowed(doc);
}

/** A match in these fields is a tag match. */
const TAG_BITS = FIELD_BIT.tags | FIELD_BIT.tagWords;

/** Lessons past this rank are never shown; only these get a full record of their matches. */
const RANKED_MAX = 200;

interface WordState {
  word: string;
  expansions: { term: string; kind: WordMatch['kind'] }[];
  /** Per lesson: which expansion matched best (-1: none) and its field bits (a concept of several expansions). */
  expansion?: Int16Array;
  fields?: Uint8Array;
  /** The postings of a concept's one expansion, where its match in a lesson is looked up (wordMatches). */
  parts?: PostingPart[];
}

/** Per-lesson sums over the query's concepts, in arrays indexed by lesson number. */
interface TextScores {
  states: WordState[];
  text: Float64Array;
  evidence: Float64Array;
  /** Informativeness-weighted sum of the query's concepts matched; its share of `information` is the coordination. */
  coverage: Float64Array;
  /** The query's concepts' informativeness summed. */
  information: number;
  tags: Uint8Array;
  keywords: Uint8Array;
  docs: number[];
  /** 1 for every lesson in `docs`. */
  isCandidate: Uint8Array;
}

interface Candidate {
  index: number;
  term: string;
  weight: number;
  quality: number;
  kind: WordMatch['kind'];
}

/** A task word's expansions: itself, longer words, near misspellings, and the corpus terms the thesaurus relates it to. */
function candidates(index: SearchIndex, dictionary: readonly string[], qt: Query['terms'][number]): Candidate[] {
  const { term } = qt;
  // Paths and commands are identifiers, spelled exactly: only the term itself.
  if (qt.from !== 'task') {
    const at = findTerm(dictionary, term);
    return at < 0 ? [] : [{ index: at, term, weight: 1, quality: FLOOR.quality.exact, kind: 'exact' }];
  }
  const result: Candidate[] = expandTerm(dictionary, term).map((e) => ({
    index: e.index,
    term: e.term,
    weight: e.weight,
    quality: e.kind === 'fuzzy' ? FLOOR.quality.fuzzy * e.weight : FLOOR.quality[e.kind],
    kind: e.kind,
  }));
  // The word run together with its neighbour is the same concept spelt as one word (and not just a longer word).
  for (const joined of qt.joined) {
    const at = findTerm(dictionary, joined);
    if (at < 0 || (result[0]?.kind === 'exact' && at === result[0].index)) continue;
    const match: Candidate = { index: at, term: joined, weight: 1, quality: FLOOR.quality.joined, kind: 'joined' };
    const known = result.findIndex((c) => c.index === at);
    if (known >= 0) result[known] = match;
    else result.push(match);
  }
  const known = new Set(result.map((c) => c.index));
  for (const relative of index.related(term)) {
    const at = findTerm(dictionary, relative);
    if (at >= 0 && !known.has(at)) result.push({ index: at, term: relative, weight: WEIGHTS.related, quality: FLOOR.quality.related, kind: 'related' });
  }
  return result;
}

function findTerm(dictionary: readonly string[], term: string): number {
  const at = lowerBound(dictionary, term);
  return dictionary[at] === term ? at : -1;
}

/**
 * Adds a concept with one expansion to the sums as its postings are read (scoreText): its
 * match in each lesson is the concept's.
 */
function foldPostings(scores: TextScores, part: PostingPart, weight: number, proofScale: number, information: number, tagBits: number, strength: Float64Array): void {
  const { docs: postingDocs, scores: postingScores, fields: postingFields, offset } = part;
  const { text, evidence, coverage, tags, keywords, docs, isCandidate } = scores;
  // What a match adds to the evidence and the coverage depends on its fields alone: worked out once per combination.
  const perInformation = Math.max(information, 1e-9);
  const proofOf = new Float64Array(strength.length);
  const coverageOf = new Float64Array(strength.length);
  for (let bits = 0; bits < strength.length; bits++) {
    proofOf[bits] = proofScale * strength[bits]!;
    coverageOf[bits] = information * Math.min(1, proofOf[bits]! / perInformation);
  }
  for (let i = 0; i < postingDocs.length; i++) {
    const doc = offset + postingDocs[i]!;
    const bits = postingFields[i]!;
    if (isCandidate[doc] === 0) {
      isCandidate[doc] = 1;
      docs.push(doc);
    }
    text[doc]! += weight * postingScores[i]!;
    evidence[doc]! += proofOf[bits]!;
    coverage[doc]! += coverageOf[bits]!;
    if ((bits & tagBits) !== 0) tags[doc]!++;
    if ((bits & FIELD_BIT.keywords) !== 0) keywords[doc]!++;
  }
}

/**
 * Keeps, per lesson, the best match of a concept's expansions (expansion `id`'s postings in
 * `part`): the best score in `weighted`, the best evidence in `proof`, the lessons reached
 * first here in `touched` from `reached`. Returns the new count of lessons reached.
 */
function bestPerLesson(
  expansion: Int16Array,
  fields: Uint8Array,
  id: number,
  part: PostingPart,
  weight: number,
  proofScale: number,
  strength: Float64Array,
  weighted: Float64Array,
  proof: Float64Array,
  touched: Int32Array,
  reached: number,
): number {
  const { docs: postingDocs, scores: postingScores, fields: postingFields, offset } = part;
  let count = reached;
  for (let i = 0; i < postingDocs.length; i++) {
    const doc = offset + postingDocs[i]!;
    const bits = postingFields[i]!;
    const w = weight * postingScores[i]!;
    const e = proofScale * strength[bits]!;
    const first = expansion[doc] === -1;
    if (first) touched[count++] = doc;
    if (first || w > weighted[doc]!) {
      weighted[doc] = w;
      expansion[doc] = id;
      fields[doc] = bits;
    }
    if (first || e > proof[doc]!) proof[doc] = e;
  }
  return count;
}

/** Adds a concept's best match in each lesson it reached (bestPerLesson) to the sums. */
function foldBest(scores: TextScores, state: Required<WordState>, weighted: Float64Array, proof: Float64Array, touched: Int32Array, reached: number, information: number): void {
  const { text, evidence, coverage, tags, keywords, docs, isCandidate } = scores;
  const { expansion, fields } = state;
  const related = Uint8Array.from(state.expansions, (e) => Number(e.kind === 'related'));
  const perInformation = Math.max(information, 1e-9);
  for (let k = 0; k < reached; k++) {
    const doc = touched[k]!;
    if (isCandidate[doc] === 0) {
      isCandidate[doc] = 1;
      docs.push(doc);
    }
    const p = proof[doc]!;
    text[doc]! += weighted[doc]!;
    evidence[doc]! += p;
    coverage[doc]! += information * Math.min(1, p / perInformation);
    const bits = fields[doc]!;
    if (related[expansion[doc]!] === 0 && (bits & TAG_BITS) !== 0) tags[doc]!++;
    if ((bits & FIELD_BIT.keywords) !== 0) keywords[doc]!++;
  }
}

/**
 * One pass over the postings of every expansion of every query term. A concept counts once
 * per lesson, by its best expansion for the score and, separately, for the evidence.
 */
function scoreText(index: SearchIndex, query: Query): TextScores {
  const n = index.docCount;
  const dictionary = query.terms.length > 0 ? index.terms : [];
  const weighted = new Float64Array(n);
  const proof = new Float64Array(n);
  const isCandidate = new Uint8Array(n);
  const scores: TextScores = {
    states: [],
    text: new Float64Array(n),
    evidence: new Float64Array(n),
    coverage: new Float64Array(n),
    information: 0,
    tags: new Uint8Array(n),
    keywords: new Uint8Array(n),
    docs: [],
    isCandidate,
  };
  const strength = strengthTable();
  // The lessons a concept reached, in the order it reached them: one scratch list for every concept.
  const touched = new Int32Array(n);
  let totalInformation = 0;
  // A stand-in (prefix, misspelling, relative) that is another task word itself is that word's concept, not a second one.
  const own = new Set(query.terms.map((qt) => qt.term));
  for (const qt of query.terms) {
    const state: WordState = { word: qt.word, expansions: [] };
    let information = 1;
    const share = qt.from === 'context' ? FLOOR.context : qt.from === 'file' ? FLOOR.file : 1;
    const usable: { candidate: Candidate; parts: PostingPart[]; informative: number }[] = [];
    for (const candidate of candidates(index, dictionary, qt)) {
      if (usable.length >= 0x7fff) break;
      if (candidate.kind !== 'exact' && own.has(candidate.term)) continue;
      const parts = index.postingParts(candidate.index);
      let df = 0;
      for (const part of parts) df += part.docs.length;
      const informative = informativeness(n, df);
      // A stand-in word (longer, misspelt, related) that most lessons contain says little and costs a pass over most of the corpus.
      if (candidate.kind !== 'exact' && informative < FLOOR.standIn) continue;
      if (candidate.kind === 'exact') information = informative;
      state.expansions.push({ term: candidate.term, kind: candidate.kind });
      usable.push({ candidate, parts, informative });
    }
    information *= share;
    totalInformation += information;
    if (usable.length === 0) {
      scores.states.push({ ...state, parts: [] });
      continue;
    }
    if (usable.length === 1) {
      // One expansion (the common case): its match is the concept's, folded into the sums as the postings are read.
      const { candidate, parts, informative } = usable[0]!;
      const proofScale = share * informative * candidate.quality;
      const tagBits = candidate.kind === 'related' ? 0 : TAG_BITS;
      for (const part of parts) foldPostings(scores, part, candidate.weight * part.scale, proofScale, information, tagBits, strength);
      scores.states.push({ ...state, parts });
      continue;
    }
    const several = { ...state, expansion: new Int16Array(n).fill(-1), fields: new Uint8Array(n), parts: [] };
    let reached = 0;
    for (const [id, { candidate, parts, informative }] of usable.entries()) {
      const proofScale = share * informative * candidate.quality;
      for (const part of parts) reached = bestPerLesson(several.expansion, several.fields, id, part, candidate.weight * part.scale, proofScale, strength, weighted, proof, touched, reached);
    }
    foldBest(scores, several, weighted, proof, touched, reached, information);
    scores.states.push(several);
  }
  scores.information = totalInformation;
  return scores;
}

function wordMatches(states: readonly WordState[], doc: number): WordMatch[] {
  const matches: WordMatch[] = [];
  for (const state of states) {
    if (state.expansion) {
      const id = state.expansion[doc]!;
      if (id >= 0) matches.push({ word: state.word, term: state.expansions[id]!.term, kind: state.expansions[id]!.kind, fields: state.fields![doc]! });
      continue;
    }
    const bits = fieldsIn(state.parts ?? [], doc);
    if (bits >= 0) matches.push({ word: state.word, term: state.expansions[0]!.term, kind: state.expansions[0]!.kind, fields: bits });
  }
  return matches;
}

/** The field bits of lesson `doc`'s posting among `parts` (each ascending by lesson), or -1. */
function fieldsIn(parts: readonly PostingPart[], doc: number): number {
  for (const { docs, fields, offset } of parts) {
    const at = lowerBound(docs, doc - offset);
    if (docs[at] === doc - offset) return fields[at]!;
  }
  return -1;
}

/**
 * The lessons whose triggers match, in lesson order: path and command triggers when the call
 * has paths or a command, and the lessons with a keyword phrase that begins with a query word.
 * Lessons that share their path and command triggers and have no phrase in play share one
 * match, computed once for the group (each gets its own copy).
 */
function triggerMatches(index: SearchIndex, query: Query): [number, TriggerMatch][] {
  const phrases = new Map<number, TriggerRow>();
  for (const phrase of index.phrases(query.sequence)) {
    let row = phrases.get(phrase.doc);
    if (!row) phrases.set(phrase.doc, (row = { doc: phrase.doc, tools: phrase.tools, paths: [], commands: [], phrases: [] }));
    row.phrases.push(phrase.terms);
  }
  const matches: [number, TriggerMatch][] = [];
  const matchRow = (row: TriggerRow): void => {
    const match = matchTriggers(row, query, query.sequence);
    if (match) matches.push([row.doc, match]);
  };
  if (query.paths.length > 0 || query.command !== null) {
    for (const { tools, paths, commands, docs } of index.triggerGroups()) {
      const shared = matchTriggers({ tools, paths, commands, phrases: [] }, query, query.sequence);
      for (const doc of docs) {
        const own = phrases.get(doc);
        if (own) {
          phrases.delete(doc);
          matchRow({ doc, tools, paths, commands, phrases: own.phrases });
        } else if (shared) matches.push([doc, { reasons: [...shared.reasons], kinds: [...shared.kinds] }]);
      }
    }
  }
  for (const row of phrases.values()) matchRow(row);
  return matches.sort((a, b) => a[0] - b[0]);
}

/** Scores every lesson the query's words reach with enough evidence to be shown, and every lesson whose triggers match; best first. */
export function rankLessons(index: SearchIndex, query: Query, policy: Policy, now: Date): RankedLesson[] {
  const { states, text, evidence, coverage, information, tags, keywords, docs, isCandidate } = scoreText(index, query);
  const add = (doc: number): void => {
    if (isCandidate[doc] === 0) {
      isCandidate[doc] = 1;
      docs.push(doc);
    }
  };
  const triggers = new Map<number, TriggerMatch>();
  const triggered = new Uint8Array(index.docCount);
  for (const [doc, match] of triggerMatches(index, query)) {
    triggers.set(doc, match);
    triggered[doc] = 1;
    add(doc);
    // A trigger match is relevance in its own right: it passes the floor and flows to the lesson's pattern and principle.
    text[doc]! += WEIGHTS.trigger;
    evidence[doc] = Math.max(evidence[doc]!, 2 * FLOOR.evidence);
  }
  const via = propagateLineage(index, docs, text, evidence, add);
  const scores = new Float64Array(index.docCount);
  const scoreOf = metaScorer(index, query, policy, now);
  const hidden = excluded(index, query);
  const scored = new Int32Array(docs.length);
  const values = new Float64Array(docs.length);
  let count = 0;
  for (const doc of docs) {
    // Below the floor's per-lesson evidence a lesson is never shown: leave it unscored.
    if ((evidence[doc]! < FLOOR.lesson && triggered[doc] === 0) || (hidden !== undefined && hidden(doc))) continue;
    const share = information > 0 ? coverage[doc]! / information : 0;
    const score =
      text[doc]! *
      (WEIGHTS.coordination.floor + share) ** WEIGHTS.coordination.power *
      (1 + WEIGHTS.tagOverlap * tags[doc]!) *
      (1 + WEIGHTS.keywordMatch * keywords[doc]!) *
      scoreOf(doc);
    scores[doc] = score;
    values[count] = score;
    scored[count++] = doc;
  }
  const threshold = kthLargest(values.subarray(0, count), RANKED_MAX);
  const kept: number[] = [];
  for (let i = 0; i < count; i++) if (values[i]! >= threshold || triggered[scored[i]!] === 1) kept.push(scored[i]!);
  kept.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return kept.map((doc) => ({
    doc,
    score: scores[doc]!,
    text: text[doc]!,
    evidence: evidence[doc]!,
    via: via.get(doc),
    meta: index.signals(doc),
    words: wordMatches(states, doc),
    trigger: triggers.get(doc),
  }));
}

/** Highest score first; equal scores in lesson order (the index is sorted by id), so output is stable. */
export function compareRanked(a: RankedLesson, b: RankedLesson): number {
  return b.score - a.score || a.doc - b.doc;
}

/**
 * The relevance floor, over lessons in rank order: a lesson passes with enough evidence
 * (FLOOR) and a score within reach of the best passing lesson's. Trigger matches always pass.
 */
export function aboveFloor(ranked: readonly RankedLesson[]): RankedLesson[] {
  const matches = ranked.some((r) => r.trigger === undefined && r.evidence >= FLOOR.evidence);
  const best = ranked.find((r) => r.trigger !== undefined || r.evidence >= FLOOR.evidence)?.score ?? 0;
  return ranked.filter((r) => r.trigger !== undefined || (matches && r.evidence >= FLOOR.lesson && r.score >= WEIGHTS.relativeFloor * best));
}
