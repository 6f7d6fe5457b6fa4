import type { Policy } from '../policy/policy.js';
import { type Dictionary, expandTerm, type Field, FIELD_BIT, FIELDS, type KernelKind, type LessonSignals, matchTriggers, postingBytes, type PostingPart, type PostingPlan, relationSupport, type Run, type ScoreInput, scoreValues, type SearchIndex, TABLE, type TriggerMatch, type TriggerRow, Workspace } from '../search/engine.js';
import { LINEAGE, propagateLineage, type Via } from './lineage.js';
import type { Query } from './query.js';

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
  /** A thesaurus relative of a task word scores at this share of the word itself. */
  related: 0.5,
} as const;
// The score's own signals' weights (level, severity, coordination, recency, project, ...) are in src/search/score-values.ts.

/**
 * The relevance floor, in terms that mean the same on every corpus (docs/RANKING.md).
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
  /** With a tool call in play, every lesson with this much evidence and a score within reach of the best applies once the best has `evidence` (aboveFloor). */
  lesson: 1,
  /**
   * A lesson is listed as related (one line, for the reader to judge) with more evidence than a
   * fully informative word its story alone mentions (body strength 0.5): a task word in its
   * title, tags or keywords that at most a quarter of the lessons contain reaches this, so a
   * two-word task naming a tool reaches the lesson whose title names it; so do two words its
   * text mentions.
   */
  related: 0.6,
  /**
   * A lesson applies (is shown in full, with its checklist) when it alone has `evidence` and its
   * matches account for at least this share of the task's information: an unrelated task that
   * shares a topic word or two with a lesson leaves most of its own concepts unexplained.
   */
  applyCoverage: 0.3,
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
  /** The share of the task's information (its concepts' informativeness) the lesson's matches account for, 0 to 1. */
  coverage: number;
  /** The linked lesson most of the inherited relevance came from. */
  via: Via | undefined;
  meta: LessonSignals;
  words: WordMatch[];
  trigger: TriggerMatch | undefined;
}

let strengths: Float64Array | undefined;

/** The strength of the strongest field among `bits`, for every combination of field bits (worked out once). */
function strengthTable(): Float64Array {
  if (strengths) return strengths;
  const table = new Float64Array(1 << FIELDS.length);
  for (let bits = 1; bits < table.length; bits++) {
    for (const field of FIELDS) if ((bits & FIELD_BIT[field]) !== 0) table[bits] = Math.max(table[bits]!, FLOOR.strength[field]);
  }
  return (strengths = table);
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
  /** The posting runs of a concept's one expansion, in the workspace, where its match in a lesson is looked up (wordMatches). */
  runs?: Run[];
}

/** The query's concepts, read: each word's state, and every usable expansion with its postings. */
interface TextPlan {
  states: WordState[];
  /** The query's concepts' informativeness summed. */
  information: number;
  concepts: { state: WordState; share: number; information: number; usable: Usable[] }[];
  /** The postings of the concepts of one expansion, and their bytes as stored (their runs go into the workspace). */
  runPostings: number;
  runBytes: number;
}

interface Usable {
  candidate: Candidate;
  /** Its postings on each side, not read yet: a concept of one expansion has them read into the workspace. */
  plans: PostingPlan[];
  informative: number;
}

interface Candidate {
  term: string;
  weight: number;
  quality: number;
  kind: WordMatch['kind'];
}

/** A task word's expansions: itself, longer words, near misspellings, and the corpus terms the thesaurus relates it to. */
function candidates(index: SearchIndex, dictionary: Dictionary, qt: Query['terms'][number]): Candidate[] {
  const { term } = qt;
  // Paths and commands are identifiers, spelled exactly: only the term itself.
  if (qt.from !== 'task') return dictionary.has(term) ? [{ term, weight: 1, quality: FLOOR.quality.exact, kind: 'exact' }] : [];
  const result: Candidate[] = expandTerm(dictionary, term).map((e) => ({
    term: e.term,
    weight: e.weight,
    quality: e.kind === 'fuzzy' ? FLOOR.quality.fuzzy * e.weight : FLOOR.quality[e.kind],
    kind: e.kind,
  }));
  // The word run together with its neighbour is the same concept spelt as one word (and not just a longer word).
  for (const joined of qt.joined) {
    if (!dictionary.has(joined) || (result[0]?.kind === 'exact' && joined === result[0].term)) continue;
    const match: Candidate = { term: joined, weight: 1, quality: FLOOR.quality.joined, kind: 'joined' };
    const known = result.findIndex((c) => c.term === joined);
    if (known >= 0) result[known] = match;
    else result.push(match);
  }
  const known = new Set(result.map((c) => c.term));
  const supported = relationSupport(index, term);
  for (const relative of index.related(term)) {
    // A relation counts only where software text supports it (software-relations.ts): WordNet's other senses say nothing about a lesson.
    if (known.has(relative) || !dictionary.has(relative) || !supported(relative)) continue;
    result.push({ term: relative, weight: WEIGHTS.related, quality: FLOOR.quality.related, kind: 'related' });
  }
  return result;
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
function foldBest(ws: Workspace, state: Required<WordState>, weighted: Float64Array, proof: Float64Array, touched: Int32Array, reached: number, information: number): void {
  const { text, evidence, coverage, tags, keywords } = ws;
  const { expansion, fields } = state;
  const related = Uint8Array.from(state.expansions, (e) => Number(e.kind === 'related'));
  const perInformation = Math.max(information, 1e-9);
  for (let k = 0; k < reached; k++) {
    const doc = touched[k]!;
    ws.add(doc);
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
 * Each query word's usable expansions (itself, and stand-ins informative enough) with their
 * postings, and how informative the word is.
 */
function planText(index: SearchIndex, query: Query): TextPlan {
  const n = index.docCount;
  const dictionary = index.dictionary();
  const plan: TextPlan = { states: [], information: 0, concepts: [], runPostings: 0, runBytes: 0 };
  // A stand-in (prefix, misspelling, relative) that is another task word itself is that word's concept, not a second one.
  const own = new Set(query.terms.map((qt) => qt.term));
  for (const qt of query.terms) {
    const state: WordState = { word: qt.word, expansions: [] };
    let information = 1;
    const share = qt.from === 'context' ? FLOOR.context : qt.from === 'file' ? FLOOR.file : 1;
    const usable: Usable[] = [];
    for (const candidate of candidates(index, dictionary, qt)) {
      if (usable.length >= 0x7fff) break;
      if (candidate.kind !== 'exact' && own.has(candidate.term)) continue;
      const plans = index.postingPlans(candidate.term);
      let df = 0;
      for (const each of plans) df += each.count;
      const informative = informativeness(n, df);
      // A stand-in word (longer, misspelt, related) that most lessons contain says little and costs a pass over most of the corpus.
      if (candidate.kind !== 'exact' && informative < FLOOR.standIn) continue;
      if (candidate.kind === 'exact') information = informative;
      state.expansions.push({ term: candidate.term, kind: candidate.kind });
      usable.push({ candidate, plans, informative });
    }
    information *= share;
    plan.information += information;
    if (usable.length === 1) {
      for (const each of usable[0]!.plans) {
        plan.runPostings += each.count;
        plan.runBytes += postingBytes(each.count);
      }
    } else if (usable.length > 1) {
      state.expansion = new Int16Array(n).fill(-1);
      state.fields = new Uint8Array(n);
    }
    plan.states.push(state);
    plan.concepts.push({ state, share, information, usable });
  }
  return plan;
}

/**
 * How informative a term is as evidence for the lessons of one side (the local lessons, or the
 * fetched sources'): judged within that side. A word that fills a source's thousands of lessons
 * says nothing about which of them applies, yet still says that a local lesson naming it is
 * about the task (and the other way round). Without sources it is the corpus's informativeness.
 */
function sideInformativeness(index: SearchIndex, plan: PostingPlan, informative: number): number {
  if (!index.hasSources) return informative;
  const local = index.docCount - index.sourceCount;
  return plan.offset >= local ? informativeness(index.sourceCount, plan.count) : informativeness(local, plan.count);
}

/**
 * One pass over the postings of every expansion of every query term, into the workspace's sums.
 * A concept counts once per lesson, by its best expansion for the score and, separately, for
 * the evidence.
 */
function scoreText(ws: Workspace, plan: TextPlan, index: SearchIndex): void {
  const n = ws.docCount;
  const strength = strengthTable();
  const { tables } = ws;
  // Scratch for concepts of several expansions, made when one comes.
  let weighted: Float64Array | undefined;
  let proof: Float64Array | undefined;
  let touched: Int32Array | undefined;
  for (const { state, share, information, usable } of plan.concepts) {
    if (usable.length === 1) {
      // One expansion (the common case): its match is the concept's, folded into the sums as the postings are read.
      const { candidate, plans, informative } = usable[0]!;
      const perInformation = Math.max(information, 1e-9);
      const tagBits = candidate.kind === 'related' ? 0 : TAG_BITS;
      state.runs = [];
      for (const each of plans) {
        // What a match adds to the evidence and the coverage depends on its fields alone: worked out once per combination (and side).
        const proofScale = share * sideInformativeness(index, each, informative) * candidate.quality;
        for (let bits = 0; bits < strength.length; bits++) {
          const proofOf = proofScale * strength[bits]!;
          tables[TABLE.proofOf + bits] = proofOf;
          tables[TABLE.coverageOf + bits] = information * Math.min(1, proofOf / perInformation);
        }
        const run = ws.addRun(each);
        state.runs.push(run);
        // The score weighs a word at the share the evidence does: a call's folder and command words at FLOOR.context.
        ws.fold(run, share * candidate.weight * each.scale, tagBits, FIELD_BIT.keywords);
      }
      continue;
    }
    if (usable.length === 0) continue;
    weighted ??= new Float64Array(n);
    proof ??= new Float64Array(n);
    touched ??= new Int32Array(n);
    const several = state as Required<WordState>;
    let reached = 0;
    for (const [id, { candidate, plans, informative }] of usable.entries()) {
      for (const each of plans) {
        const proofScale = share * sideInformativeness(index, each, informative) * candidate.quality;
        const part = each.read();
        reached = bestPerLesson(several.expansion, several.fields, id, part, share * candidate.weight * part.scale, proofScale, strength, weighted, proof, touched, reached);
      }
    }
    foldBest(ws, several, weighted, proof, touched, reached, information);
  }
}

/** How each query word matched each of `kept`. */
function wordMatches(ws: Workspace, states: readonly WordState[], kept: readonly number[]): Map<number, WordMatch[]> {
  const matches = new Map<number, WordMatch[]>(kept.map((doc) => [doc, []]));
  const ascending = [...kept].sort((a, b) => a - b);
  for (const state of states) {
    if (state.expansion) {
      for (const doc of ascending) {
        const id = state.expansion[doc]!;
        if (id >= 0) matches.get(doc)!.push({ word: state.word, term: state.expansions[id]!.term, kind: state.expansions[id]!.kind, fields: state.fields![doc]! });
      }
      continue;
    }
    if (!state.runs || state.runs.length === 0) continue;
    // A lesson has a posting in one run at most (the local lessons' or the sources').
    const bits = new Uint8Array(ascending.length);
    for (const run of state.runs) {
      const found = ws.fieldsOf(run, ascending);
      for (let k = 0; k < ascending.length; k++) bits[k]! |= found[k]!;
    }
    const { term, kind } = state.expansions[0]!;
    ascending.forEach((doc, k) => {
      if (bits[k] !== 0) matches.get(doc)!.push({ word: state.word, term, kind, fields: bits[k]! });
    });
  }
  return matches;
}

/**
 * The lessons whose triggers match, in lesson order: path and command triggers when the call
 * has paths or a command, and the lessons with a keyword phrase that begins with a query word.
 * Lessons that share their path and command triggers and have no phrase in play share one
 * match, computed once for the group: one object, read and never changed (thousands of
 * lessons may share a `**\/package.json` trigger).
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
      for (let k = 0; k < docs.length; k++) {
        const doc = docs[k]!;
        const own = phrases.size > 0 ? phrases.get(doc) : undefined;
        if (own) {
          phrases.delete(doc);
          matchRow({ doc, tools, paths, commands, phrases: own.phrases });
        } else if (shared) matches.push([doc, shared]);
      }
    }
  }
  for (const row of phrases.values()) matchRow(row);
  return matches.sort((a, b) => a[0] - b[0]);
}

/** Scores every lesson the query's words reach with enough evidence to be shown, and every lesson whose triggers match; best first. */
export function rankLessons(index: SearchIndex, query: Query, policy: Policy, now: Date, kernels: KernelKind = 'auto'): RankedLesson[] {
  const plan = planText(index, query);
  const n = index.docCount;
  const ws = new Workspace({ docCount: n, localLessons: n - index.sourceCount, sourceLessons: index.sourceCount, runPostings: plan.runPostings, runBytes: plan.runBytes }, kernels);
  if (n > 0) index.readMeta(ws.localRows, ws.sourceRows);
  scoreText(ws, plan, index);
  const { text, evidence, coverage, triggered } = ws;
  const triggers = new Map<number, TriggerMatch>();
  for (const [doc, match] of triggerMatches(index, query)) {
    triggers.set(doc, match);
    triggered[doc] = 1;
    ws.add(doc);
    // A trigger match is relevance in its own right: it passes the floor and flows to the lesson's pattern and principle.
    text[doc]! += WEIGHTS.trigger;
    evidence[doc] = Math.max(evidence[doc]!, 2 * FLOOR.evidence);
  }
  const via = propagateLineage(index, ws.bestByText(LINEAGE.sources), text, evidence, (doc) => ws.add(doc));
  // Ranked down to a stand-in's worth of evidence: the best lesson of a short task may be listed on less than FLOOR.lesson (aboveWeakFloor).
  const input: ScoreInput = { ...scoreValues(ws, index, { project: query.project, staleAfterDays: policy.lessons.stale_after_days, now }), information: plan.information, lessonFloor: FLOOR.standIn };
  let kept = ws.score(RANKED_MAX, input);
  // A source's lesson whose id a local lesson has is never shown (the local one is the lesson): looked for among the lessons kept, which are scored again without those found until none is.
  const checked = new Set<number>();
  while (index.hasSources) {
    const unchecked = kept.docs.filter((doc) => !checked.has(doc));
    for (const doc of unchecked) checked.add(doc);
    const shadowed = unchecked.filter((doc) => index.isShadowed(doc));
    if (shadowed.length === 0) break;
    for (const doc of shadowed) ws.shadowed[doc] = 1;
    kept = ws.score(RANKED_MAX, input);
  }
  const order = kept.docs.map((_, i) => i).sort((a, b) => kept.scores[b]! - kept.scores[a]! || kept.docs[a]! - kept.docs[b]!);
  const docs = order.map((i) => kept.docs[i]!);
  const words = wordMatches(ws, plan.states, docs);
  return order.map((i) => {
    const doc = kept.docs[i]!;
    return {
      doc,
      score: kept.scores[i]!,
      text: text[doc]!,
      evidence: evidence[doc]!,
      coverage: plan.information > 0 ? Math.min(1, coverage[doc]! / plan.information) : 0,
      via: via.get(doc),
      meta: index.signals(doc),
      words: words.get(doc)!,
      trigger: triggers.get(doc),
    };
  });
}

/** Highest score first; equal scores in lesson order (the index is sorted by id), so output is stable. */
export function compareRanked(a: RankedLesson, b: RankedLesson): number {
  return b.score - a.score || a.doc - b.doc;
}

/**
 * Whether a lesson is confident enough to apply to a task of words alone: a trigger match
 * always is; otherwise it needs FLOOR.evidence and FLOOR.applyCoverage.
 */
export function confident(lesson: RankedLesson): boolean {
  return lesson.trigger !== undefined || (lesson.evidence >= FLOOR.evidence && lesson.coverage >= FLOOR.applyCoverage);
}

/**
 * The lessons that apply, in rank order. For a task of words alone: confident lessons with a
 * score within reach of the best confident lesson's. With a tool call in play (`call`), the call
 * names what the work touches: the best lesson needs FLOOR.evidence, the others FLOOR.lesson,
 * within the same reach. Trigger matches always apply.
 */
export function aboveFloor(ranked: readonly RankedLesson[], call = false): RankedLesson[] {
  if (!call) {
    const best = ranked.find(confident)?.score ?? 0;
    return ranked.filter((r) => r.trigger !== undefined || (confident(r) && r.score >= WEIGHTS.relativeFloor * best));
  }
  const matches = ranked.some((r) => r.trigger === undefined && r.evidence >= FLOOR.evidence);
  const best = ranked.find((r) => r.trigger !== undefined || r.evidence >= FLOOR.evidence)?.score ?? 0;
  return ranked.filter((r) => r.trigger !== undefined || (matches && r.evidence >= FLOOR.lesson && r.score >= WEIGHTS.relativeFloor * best));
}

/**
 * The weak floor of the related tier, in rank order: lessons with FLOOR.related evidence (an
 * informative task word naming their subject, or two their text mentions). For a task of words
 * alone, no share of the best score: an entry costs one line, `related_max` bounds how many, and
 * the ranking below a strong first lesson is where the rest of the answer is; the reader, who
 * knows the task, judges the title. With a tool call in play (`call`), within reach of the best
 * (WEIGHTS.relativeFloor), as the apply tier: the call's words name structure (git, src, npm)
 * as often as subject, a trigger match lifts the best far above the rest, and the answer is
 * read before every call.
 */
export function aboveWeakFloor(ranked: readonly RankedLesson[], call = false): RankedLesson[] {
  const reach = call ? WEIGHTS.relativeFloor * (ranked[0]?.score ?? 0) : 0;
  return ranked.filter((r) => r.trigger !== undefined || (r.evidence >= FLOOR.related && r.score >= reach));
}
