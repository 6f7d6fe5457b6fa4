import { createHash } from 'node:crypto';
import { fingerprint, type Fingerprint, memo, similarGroups, textModelPrints } from '../search/engine.js';
import type { IndexEntry } from '../index/build.js';
import type { RecentChanges } from '../io/git/log.js';
import { patternEvidence, principleEvidence } from '../lesson/evidence.js';
import { LEVELS, STATUSES, type Lesson, type Level, type Status } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { byKey, compareStrings } from '../util/compare.js';
import { daysBetween, isIsoDate } from '../util/dates.js';
import { sha256 } from '../util/digest.js';
import { efficacyOf, usageOf, type Efficacy, type History, type Usage } from './activity.js';
import { driftOf, type Drift } from './drift.js';
import type { CodeSnippets } from '../lesson/body.js';
import { retrievalOf, type Retrieval, type RetrievalHealth } from './retrieval.js';
import { agingOf, candidateAgesOf, promotionGraphOf, type AgeBucket, type PromotionGraph } from './tree.js';

export interface ReportInput {
  lessons: readonly Lesson[];
  /** The index entries of the same lessons: summary, checklist, promoted_into. */
  index: readonly IndexEntry[];
  policy: Policy;
  today: string;
  /** Commits (undefined without git history), hook session records and what marks an incident. */
  history: History;
  /** The repository's files, relative to its root. */
  files: readonly string[];
  /** The scripts of the root package.json; undefined without one. */
  scripts: ReadonlySet<string> | undefined;
  /** What the repository changed in the year up to today; undefined without git history. */
  recent: RecentChanges | undefined;
  evalsFile: boolean;
  /** The `lessons eval` run over lessons/evals.json, when one was made. */
  retrieval: RetrievalHealth | undefined;
  /** The code each lesson's body names, by id, when the lessons come without bodies (summarised by the file cache). */
  code?: ReadonlyMap<string, CodeSnippets> | undefined;
  /** A stemmed word's thesaurus relatives in this corpus (preflight's search cache); none when not given. */
  related?: ((term: string) => readonly string[]) | undefined;
  /** The lessons' likeness (likenessOf()) when it is known already; computed otherwise. */
  likeness?: Likeness | undefined;
}

/**
 * What the similarity sections group, before the promotion evidence is weighed: a function of
 * the lessons' text and the policy's thresholds alone (likenessKey() says which), so a change of
 * status, dates or occurrences leaves it as it was.
 */
export interface Likeness {
  duplicates: DuplicateCluster[];
  /** Live cases that no pattern covers yet and that read alike, by id, with the weakest link. */
  cases: DuplicateCluster[];
}

export interface StaleLesson {
  id: string;
  path: string;
  status: Status;
  last_validated_at: string | null;
  /** Days since last_validated_at; null when it was never validated. */
  days: number | null;
  /** The command that re-validates it after a review. */
  command: string;
}

export interface Candidate {
  id: string;
  path: string;
  source: Lesson['source'];
  created_at: string | null;
  occurrences: number;
}

export interface PromotionSuggestion {
  to: 'pattern' | 'principle';
  ids: string[];
  /** Pattern: the weakest similarity linking the cases. Principle: null. */
  similarity: number | null;
  /** Principle: the distinct contexts the pattern was applied in. */
  contexts: string[];
  command: string;
}

/** Live lessons that read as one (similarity at least the capture threshold). */
export interface DuplicateCluster {
  ids: string[];
  similarity: number;
}

export interface Report {
  /** The date the report describes, YYYY-MM-DD. */
  today: string;
  total: number;
  /** Every lesson's title and summary, by id. */
  directory: Record<string, { title: string; summary: string }>;
  counts: Record<Level, Record<Status, number>>;
  stale_after_days: number;
  stale: StaleLesson[];
  aging: { buckets: AgeBucket[]; never: number };
  graph: PromotionGraph;
  candidates: Candidate[];
  candidate_ages: { buckets: AgeBucket[]; undated: number };
  auto_candidates: number;
  max_auto_candidates: number;
  ready_to_promote: PromotionSuggestion[];
  duplicates: DuplicateCluster[];
  usage: Usage;
  efficacy: Efficacy;
  drift: Drift;
  retrieval: Retrieval;
}

/** The state of the lessons for a steward; pure. */
export function buildReport(input: ReportInput): Report {
  const { lessons, index, policy, today } = input;
  const entries = new Map(index.map((entry) => [entry.id, entry]));
  const likeness = input.likeness ?? likenessOf(lessons, index, policy, input.related ?? (() => []));
  const path = (id: string): string => entries.get(id)?.path ?? '';
  const counts = Object.fromEntries(LEVELS.map((level) => [level, Object.fromEntries(STATUSES.map((status) => [status, 0]))])) as Report['counts'];
  for (const lesson of lessons) counts[lesson.level][lesson.status]++;
  const limit = policy.lessons.stale_after_days;
  const stale: StaleLesson[] = lessons
    .filter((lesson) => lesson.status === 'validated' || lesson.status === 'canonical')
    .map((lesson) => {
      const validated = lesson.last_validated_at;
      const days = validated !== null && isIsoDate(validated) ? daysBetween(validated, today) : null;
      return { id: lesson.id, path: path(lesson.id), status: lesson.status, last_validated_at: validated, days, command: `lessons accept ${lesson.id}` };
    })
    .filter((item) => item.days === null || item.days > limit)
    .sort((a, b) => (b.days ?? Infinity) - (a.days ?? Infinity) || compareStrings(a.id, b.id));
  const candidates: Candidate[] = lessons
    .filter((lesson) => lesson.status === 'candidate')
    .map((lesson) => ({ id: lesson.id, path: path(lesson.id), source: lesson.source, created_at: lesson.created_at, occurrences: lesson.occurrences }))
    .sort((a, b) => compareStrings(a.created_at ?? '', b.created_at ?? '') || compareStrings(a.id, b.id));
  return {
    today,
    total: lessons.length,
    directory: Object.fromEntries([...lessons].sort(byKey((lesson) => lesson.id)).map((lesson) => [lesson.id, { title: lesson.title, summary: entries.get(lesson.id)?.summary ?? '' }])),
    counts,
    stale_after_days: limit,
    stale,
    aging: agingOf(lessons, today, limit),
    graph: promotionGraphOf(lessons),
    candidates,
    candidate_ages: candidateAgesOf(candidates, today),
    auto_candidates: candidates.filter((candidate) => candidate.source === 'auto').length,
    max_auto_candidates: policy.lessons.max_auto_candidates,
    ready_to_promote: [...casesReady(lessons, likeness.cases), ...patternsReady(lessons, entries)],
    duplicates: likeness.duplicates,
    usage: usageOf(lessons, input.history, today),
    efficacy: efficacyOf(lessons, input.history),
    drift: driftOf({ lessons, files: input.files, scripts: input.scripts, recent: input.recent, code: input.code }),
    retrieval: retrievalOf(input.evalsFile, input.retrieval),
  };
}

/** The lessons' likeness: near-duplicates in preflight's text model, and groups of alike cases; pure. */
export function likenessOf(lessons: readonly Lesson[], index: readonly IndexEntry[], policy: Policy, related: (term: string) => readonly string[]): Likeness {
  const entries = new Map(index.map((entry) => [entry.id, entry]));
  return { duplicates: duplicatesOf(lessons, entries, related, policy.capture.similarity_threshold), cases: alikeCases(lessons, entries, policy.report.promote_similarity) };
}

/**
 * The digest of everything likenessOf() reads: each lesson's id, level, whether it is retired or
 * promoted into another, and the text compared (title, summary, tags, checklist), with the two
 * thresholds, the thesaurus and the acronym table (their texts). Equal digests, equal likeness.
 */
export function likenessKey(lessons: readonly Lesson[], index: readonly IndexEntry[], policy: Policy, thesaurus: string, acronyms: string): string {
  const entries = new Map(index.map((entry) => [entry.id, entry]));
  const hash = createHash('sha256').update(JSON.stringify([policy.capture.similarity_threshold, policy.report.promote_similarity, sha256(thesaurus), sha256(acronyms)]));
  for (const lesson of [...lessons].sort(byKey((item) => item.id))) {
    const entry = entries.get(lesson.id);
    hash.update(`\n${JSON.stringify([lesson.id, lesson.level, lesson.status === 'retired', (entry?.promoted_into.length ?? 0) > 0, lesson.title, entry?.summary ?? '', lesson.tags, entry?.checklist ?? []])}`);
  }
  return hash.digest('hex');
}

/**
 * Groups of live cases that no pattern covers yet and that read alike (single-linkage over
 * pairwise similarity).
 */
function alikeCases(lessons: readonly Lesson[], entries: Map<string, IndexEntry>, threshold: number): DuplicateCluster[] {
  const cases = lessons
    .filter((lesson) => lesson.level === 'case' && lesson.status !== 'retired' && (entries.get(lesson.id)?.promoted_into.length ?? 0) === 0)
    .sort(byKey((lesson) => lesson.id));
  const prints = cases.map((lesson) => printOf(lesson, entries.get(lesson.id)));
  return similarGroups(prints, threshold).map((group) => ({ ids: group.members.map((n) => cases[n]!.id), similarity: group.weakest }));
}

/** The groups of alike cases that are independent enough to pass promotion. */
function casesReady(lessons: readonly Lesson[], groups: readonly DuplicateCluster[]): PromotionSuggestion[] {
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]));
  const suggestions: PromotionSuggestion[] = [];
  for (const { ids, similarity } of groups) {
    if (ids.length < 2 || !patternEvidence(ids, (id) => byId.get(id)).ok) continue;
    suggestions.push({
      to: 'pattern',
      ids,
      similarity,
      contexts: [],
      command: `lessons promote ${ids.join(' ')} --to pattern --title "<what they have in common>"`,
    });
  }
  return suggestions.sort(byKey((suggestion) => suggestion.ids[0]!));
}

/** Live patterns that no principle covers yet and whose applications already satisfy one. */
function patternsReady(lessons: readonly Lesson[], entries: Map<string, IndexEntry>): PromotionSuggestion[] {
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]));
  const principles = new Set(lessons.filter((lesson) => lesson.level === 'principle').map((lesson) => lesson.id));
  return lessons
    .filter((lesson) => lesson.level === 'pattern' && lesson.status !== 'retired')
    .filter((lesson) => !(entries.get(lesson.id)?.promoted_into ?? []).some((id) => principles.has(id)))
    .filter((lesson) => principleEvidence([lesson.id], (id) => byId.get(id)).ok)
    .sort(byKey((lesson) => lesson.id))
    .map((lesson) => ({
      to: 'principle' as const,
      ids: [lesson.id],
      similarity: null,
      contexts: [...new Set(lesson.applications.map((application) => application.context))].sort(compareStrings),
      command: `lessons promote ${lesson.id} --to principle --title "<the rule that holds everywhere>"`,
    }));
}

function printOf(lesson: Lesson, entry: IndexEntry | undefined): Fingerprint {
  return fingerprint({ title: lesson.title, summary: entry?.summary ?? '', checklist: entry?.checklist ?? [] });
}

/**
 * Clusters of live lessons of one level that read as one, in preflight's text model (its stems,
 * field weights and thesaurus, so a paraphrase counts): candidates for merging or retiring one.
 * Across levels likeness is expected (a pattern reads like the cases it came from).
 */
function duplicatesOf(lessons: readonly Lesson[], entries: Map<string, IndexEntry>, related: (term: string) => readonly string[], threshold: number): DuplicateCluster[] {
  const live = lessons.filter((lesson) => lesson.status !== 'retired').sort(byKey((lesson) => lesson.id));
  const prints = textModelPrints(
    live.map((lesson) => ({ id: lesson.id, title: lesson.title, summary: entries.get(lesson.id)?.summary ?? '', tags: lesson.tags, checklist: entries.get(lesson.id)?.checklist ?? [] })),
    memo(related),
  );
  return LEVELS.flatMap((level) => {
    const ofLevel = live.filter((lesson) => lesson.level === level);
    return similarGroups(ofLevel.map((lesson) => prints.get(lesson.id)!), threshold).map((group) => ({ ids: group.members.map((n) => ofLevel[n]!.id), similarity: group.weakest }));
  }).sort(byKey((cluster) => cluster.ids[0]!));
}
