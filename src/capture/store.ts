import { UsageError, LessonsError } from '../errors.js';
import { checklistItems, firstParagraph } from '../lesson/body.js';
import { DEFAULTS, INSIGHTS, KINDS, SEVERITIES, candidateLesson, TRIGGER_KEYS, emptyTriggers, type Insight, type Kind, type Lesson, type Severity, type Triggers } from '../lesson/model.js';
import { TAG_PATTERN, baseId } from '../lifecycle/new.js';
import type { LoadedLesson } from '../lesson/load.js';
import { normaliseBody } from '../lesson/parse.js';
import { compareStrings, uniqueSorted } from '../util/compare.js';
import { changeLessons, firstFreeId, refuse, type LessonWrite, type TreeState } from '../lifecycle/change.js';
import { changeIndexedLessons, newLessonPath, type IndexedPlan, type IndexedState, type PlacedWrite } from '../lifecycle/indexed-change.js';
import type { Policy } from '../policy/policy.js';
import { indexCandidates, searchCandidates, type SearchCandidate } from './candidates.js';
import { redactDraft } from './redact.js';
import { compileSecretRules } from '../secrets/rules.js';
import { type Comparable, comparableText, fingerprint, type Fingerprint, foldText, likelyAlike, similarity, similarityWords } from '../search/engine.js';

/** A lesson as a tool proposes it, before it is a file. */
export interface Draft {
  title: string;
  summary?: string;
  tags: string[];
  severity?: Severity;
  body: string;
  triggers?: Partial<Triggers>;
  confidence?: number;
  kind?: Kind;
  insight?: Insight;
}

export interface CaptureOutcome {
  action: 'created' | 'bumped';
  id: string;
  path: string;
  duplicateOf?: string;
  similarity?: number;
  /** The lesson's occurrences after a bump. */
  occurrences?: number;
  /** Set when the bump took occurrences past policy.capture.escalate_after: the severity rose one step. */
  escalated?: { from: Severity; to: Severity; after: number };
  /** The secret rules whose matches were replaced by `[redacted <rule>]` before anything was written. */
  redacted?: string[];
}

/**
 * Stores drafts as `source: auto` candidate cases. A draft whose title matches an existing
 * lesson's, or whose text is at least policy.capture.similarity_threshold similar to one,
 * bumps that lesson's occurrences and last_seen instead: a recurring mistake gets louder, not
 * more numerous: the bump that takes occurrences past policy.capture.escalate_after also
 * raises its severity one step (never past critical), and the outcome says so. Retired lessons are not matched (a recurrence of one is a new candidate).
 * Past policy.lessons.max_auto_candidates waiting candidates, nothing is written and the
 * capture is refused: the backlog is reviewed first, and the same input captured again then.
 * Runs under the lessons lock: concurrent captures lose no occurrence.
 */
export async function storeDrafts(options: { cwd: string; drafts: Draft[]; now: Date }): Promise<CaptureOutcome[]> {
  for (const draft of options.drafts) {
    if (draft.title.trim() === '') throw new UsageError('a captured lesson has no title: give each block a `title:` line');
  }
  if (options.drafts.length === 0) return [];
  const drafts = options.drafts;
  return changeLessons(
    { cwd: options.cwd, now: options.now, shortcut: (root) => changeIndexedLessons(root, options.now, (state) => planIndexedCapture(state, drafts)) },
    (state) => planCapture(state, drafts),
  );
}

/** A lesson a draft is compared with. */
interface Known {
  id: string;
  path: string;
  comparable: Comparable;
  fingerprint?: Fingerprint;
  /** The whole lesson, body and all: what a bump changes and writes back. */
  whole: () => Lesson;
}

/** The lessons capture plans against: read whole (the tree), or found through the search cache. */
interface Corpus {
  policy: Policy;
  today: string;
  /** Live lessons that may be at least `threshold` similar to `print` (a superset of them), in id order. */
  alike: (print: Fingerprint, titleWords: readonly string[], threshold: number) => Known[];
  /** Whether a lesson uses `id`. */
  taken: (id: string) => boolean;
  /** Auto-captured candidates waiting for review (counted only when a draft would add one). */
  waiting: () => number;
}

/** Decides, draft by draft, what capture writes, from the whole tree. */
export function planCapture(state: TreeState, drafts: readonly Draft[]): { writes: LessonWrite[]; result: CaptureOutcome[] } {
  const known = state.lessons
    .filter((item) => item.lesson.status !== 'retired')
    .sort((a, b) => compareStrings(a.lesson.id, b.lesson.id))
    .map((item) => ({ item, comparable: comparableOf(item) }));
  const folded = known.map(({ comparable }) => foldText(comparableText(comparable)));
  const fingerprints: (Fingerprint | undefined)[] = [];
  const ids = new Set(state.lessons.map((item) => item.lesson.id));
  return planDrafts(
    {
      policy: state.policy,
      today: state.today,
      alike: (print, titleWords, threshold) =>
        likelyAlike(print, titleWords, folded, threshold).map((n) => ({
          id: known[n]!.item.lesson.id,
          path: known[n]!.item.path,
          comparable: known[n]!.comparable,
          fingerprint: (fingerprints[n] ??= fingerprint(known[n]!.comparable)),
          whole: () => state.whole(known[n]!.item),
        })),
      taken: (id) => ids.has(id),
      waiting: () => state.lessons.filter((item) => item.lesson.source === 'auto' && item.lesson.status === 'candidate').length,
    },
    drafts,
  );
}

/** Decides what capture writes from the search cache and the index: only the lessons a draft may repeat are read. */
function planIndexedCapture(state: IndexedState, drafts: readonly Draft[]): IndexedPlan<CaptureOutcome[]> {
  const whole = (known: SearchCandidate): Lesson => {
    const lesson = state.whole(known.path);
    if (lesson === undefined || lesson.id !== known.id) throw new LessonsError('IO', `${known.path} changed while it was read: run the command again`);
    return lesson;
  };
  return planDrafts(
    {
      policy: state.policy,
      today: state.today,
      alike: (print, titleWords, threshold) =>
        (state.search ? searchCandidates(state.search, print, titleWords, threshold) : indexCandidates(state.lines(), print, titleWords, threshold)).map((found) => ({ ...found, whole: () => whole(found) })),
      taken: state.taken,
      // One entry a line: these literals are the fields' values, never part of a string (its quotes are escaped).
      waiting: () => state.count(['"source":"auto"', '"status":"candidate"']),
    },
    drafts,
  );
}

/** Decides, draft by draft, what capture writes; later drafts can match lessons earlier ones created. */
function planDrafts(corpus: Corpus, given: readonly Draft[]): { writes: PlacedWrite[]; result: CaptureOutcome[] } {
  const rules = compileSecretRules(corpus.policy.secrets);
  if ('error' in rules) throw refuse(`capture redacts secrets with the policy's secrets.rules before writing, and they do not compile (${rules.error}): fix the policy; nothing was written`);
  const cleaned = given.map((draft) => redactDraft(draft, rules));
  const drafts = cleaned.map(({ draft }) => draft);
  const threshold = corpus.policy.capture.similarity_threshold;
  const changed = new Map<string, PlacedWrite>();
  const created: Known[] = [];
  const taken = new Set<string>();
  const outcomes: CaptureOutcome[] = [];
  for (const [n, draft] of drafts.entries()) {
    const redacted = cleaned[n]!.redacted.length > 0 ? { redacted: cleaned[n]!.redacted } : {};
    const comparable = comparableOf({ lesson: { title: draft.title, summary: draft.summary ?? null, body: draft.body } });
    const print = fingerprint(comparable);
    // The lessons whose text can reach the threshold, in id order, then those this capture created.
    const titleWords = similarityWords(draft.title);
    const candidates = [...corpus.alike(print, titleWords, threshold), ...created.filter((item) => likelyAlike(print, titleWords, [foldText(comparableText(item.comparable))], threshold).length > 0)];
    let best: { item: Known; score: number } | undefined;
    for (const item of candidates) {
      const score = similarity(print, (item.fingerprint ??= fingerprint(item.comparable)));
      if (score > (best?.score ?? 0)) best = { item, score };
    }
    if (best && best.score >= threshold) {
      const before = changed.get(best.item.id);
      const current = before?.lesson ?? best.item.whole();
      const occurrences = current.occurrences + 1;
      const escalateAfter = corpus.policy.capture.escalate_after;
      const severity = escalatedSeverity(current.severity, current.occurrences, occurrences, escalateAfter);
      const bumped = { ...current, occurrences, severity, last_seen: corpus.today };
      changed.set(bumped.id, { lesson: bumped, path: best.item.path, create: before?.create ?? false });
      outcomes.push({
        action: 'bumped',
        id: bumped.id,
        path: best.item.path,
        duplicateOf: bumped.id,
        similarity: best.score,
        occurrences,
        ...(severity === current.severity ? {} : { escalated: { from: current.severity, to: severity, after: escalateAfter } }),
        ...redacted,
      });
      continue;
    }
    const lesson = draftLesson(draft, corpus.today);
    lesson.id = firstFreeId(baseId('case', lesson.title, corpus.today), (id) => corpus.taken(id) || taken.has(id));
    taken.add(lesson.id);
    const file = newLessonPath(lesson);
    changed.set(lesson.id, { lesson, path: file, create: true });
    created.push({ id: lesson.id, path: file, comparable, fingerprint: print, whole: () => changed.get(lesson.id)!.lesson });
    outcomes.push({ action: 'created', id: lesson.id, path: file, ...redacted });
  }
  const count = outcomes.filter((outcome) => outcome.action === 'created').length;
  const cap = corpus.policy.lessons.max_auto_candidates;
  const waiting = count > 0 ? corpus.waiting() : 0;
  if (count > 0 && waiting + count > cap) {
    throw refuse(
      `capture would add ${count} auto-captured candidate${count === 1 ? '' : 's'} to the ${waiting} waiting for review, past the policy cap of ${cap} (policy.lessons.max_auto_candidates): ` +
        'review the backlog first (`lessons report` lists it; `lessons accept` or `lessons retire` each), then capture again; nothing was written',
    );
  }
  return { writes: [...changed.values()], result: outcomes };
}

/** One step louder when occurrences cross `threshold` (from at most it to past it); critical stays critical. */
export function escalatedSeverity(severity: Severity, before: number, after: number, threshold: number): Severity {
  if (!(before <= threshold && after > threshold)) return severity;
  return SEVERITIES[Math.min(SEVERITIES.length - 1, SEVERITIES.indexOf(severity) + 1)]!;
}

/** What dedup compares of a lesson: from its body, or from what the file cache kept of it. */
function comparableOf(item: { lesson: Pick<Lesson, 'title' | 'summary' | 'body'>; precomputed?: LoadedLesson['precomputed'] }): Comparable {
  const { lesson, precomputed } = item;
  return { title: lesson.title, summary: lesson.summary ?? firstParagraph(lesson.body), checklist: precomputed?.checklist ?? checklistItems(lesson.body) };
}

/** A candidate case from a draft, with its id still to be chosen. */
export function draftLesson(draft: Draft, today: string): Lesson {
  const triggers = emptyTriggers();
  for (const key of TRIGGER_KEYS) triggers[key] = uniqueSorted((draft.triggers?.[key] ?? []).map((value) => value.trim()).filter(Boolean));
  const confidence = draft.confidence !== undefined && Number.isInteger(draft.confidence) && draft.confidence >= 1 && draft.confidence <= 5 ? draft.confidence : DEFAULTS.confidence;
  const summary = draft.summary?.replace(/\s+/g, ' ').trim();
  return candidateLesson(
    {
      id: '',
      title: clip(draft.title.replace(/\s+/g, ' ').trim(), 200),
      level: 'case',
      severity: draft.severity && SEVERITIES.includes(draft.severity) ? draft.severity : DEFAULTS.severity,
      // In the order given: a draft lists its main tag first.
      tags: [...new Set(draft.tags.map(normaliseTag).filter((tag) => TAG_PATTERN.test(tag)))],
      confidence,
      transferability: 2,
      source: 'auto',
      summary: summary ? clip(summary, 1000) : null,
      kind: draft.kind && KINDS.includes(draft.kind) ? draft.kind : null,
      insight: draft.insight && INSIGHTS.includes(draft.insight) ? draft.insight : null,
      triggers,
      body: normaliseBody(draft.body.replace(/\r\n/g, '\n')),
    },
    today,
  );

}

export function normaliseTag(tag: string): string {
  return tag
    .trim()
    .toLowerCase()
    .replace(/[\s/]+/g, '-')
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/^[-_.]+|[-_.]+$/g, '');
}

/** At most `max` characters, cut at a word boundary. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
