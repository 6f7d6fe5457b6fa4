import { UsageError } from '../errors.js';
import { checklistItems, firstParagraph } from '../lesson/body.js';
import { DEFAULTS, INSIGHTS, KINDS, SEVERITIES, candidateLesson, TRIGGER_KEYS, emptyTriggers, type Insight, type Kind, type Lesson, type Severity, type Triggers } from '../lesson/model.js';
import { TAG_PATTERN, baseId } from '../lesson/new.js';
import type { LoadedLesson } from '../lesson/load.js';
import { normaliseBody } from '../lesson/parse.js';
import { compareStrings, uniqueSorted } from '../util/compare.js';
import { changeLessons, freeId, pathOf, refuse, type LessonWrite, type TreeState } from '../lifecycle/change.js';
import { comparableText, fingerprint, foldText, likelyAlike, similarity, words, type Comparable, type Fingerprint } from './similarity.js';

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
  return changeLessons({ cwd: options.cwd, now: options.now }, (state) => planCapture(state, options.drafts));
}

interface Known {
  lesson: Lesson;
  /** The whole lesson, when it is written. */
  item?: LoadedLesson;
  /** Its comparable text, folded (foldText): what the candidate search looks in. */
  folded: string;
  comparable: Comparable;
  fingerprint?: Fingerprint;
}

/** Decides, draft by draft, what capture writes; later drafts can match lessons earlier ones created. */
export function planCapture(state: TreeState, drafts: readonly Draft[]): { writes: LessonWrite[]; result: CaptureOutcome[] } {
  const threshold = state.policy.capture.similarity_threshold;
  const known: Known[] = state.lessons
    .filter((item) => item.lesson.status !== 'retired')
    .map((item) => knownOf(item.lesson, comparableOf(item), item))
    .sort((a, b) => compareStrings(a.lesson.id, b.lesson.id));
  const changed = new Map<string, { lesson: Lesson; create: boolean }>();
  const taken = new Set<string>();
  const outcomes: CaptureOutcome[] = [];
  for (const draft of drafts) {
    const comparable = comparableOf({ lesson: { title: draft.title, summary: draft.summary ?? null, body: draft.body } });
    const print = fingerprint(comparable);
    // Only the lessons whose text can reach the threshold are fingerprinted and compared, in id order.
    const candidates = likelyAlike(print, words(draft.title), known.map((item) => item.folded), threshold);
    let best: { item: Known; score: number } | undefined;
    for (const n of candidates) {
      const item = known[n]!;
      const score = similarity(print, (item.fingerprint ??= fingerprint(item.comparable)));
      if (score > (best?.score ?? 0)) best = { item, score };
    }
    if (best && best.score >= threshold) {
      const current = changed.get(best.item.lesson.id)?.lesson ?? (best.item.item ? state.whole(best.item.item) : best.item.lesson);
      const occurrences = current.occurrences + 1;
      const severity = escalatedSeverity(current.severity, current.occurrences, occurrences, state.policy.capture.escalate_after);
      const bumped = { ...current, occurrences, severity, last_seen: state.today };
      changed.set(bumped.id, { lesson: bumped, create: changed.get(bumped.id)?.create ?? false });
      outcomes.push({
        action: 'bumped',
        id: bumped.id,
        path: pathOf(state, bumped),
        duplicateOf: bumped.id,
        similarity: best.score,
        occurrences,
        ...(severity === current.severity ? {} : { escalated: { from: current.severity, to: severity, after: state.policy.capture.escalate_after } }),
      });
      continue;
    }
    const lesson = draftLesson(draft, state.today);
    lesson.id = freeId(state, baseId('case', lesson.title, state.today), taken);
    taken.add(lesson.id);
    changed.set(lesson.id, { lesson, create: true });
    known.push({ ...knownOf(lesson, comparable), fingerprint: print });
    outcomes.push({ action: 'created', id: lesson.id, path: pathOf(state, lesson) });
  }
  const created = outcomes.filter((outcome) => outcome.action === 'created').length;
  const waiting = state.lessons.filter((item) => item.lesson.source === 'auto' && item.lesson.status === 'candidate').length;
  const cap = state.policy.lessons.max_auto_candidates;
  if (created > 0 && waiting + created > cap) {
    throw refuse(
      `capture would add ${created} auto-captured candidate${created === 1 ? '' : 's'} to the ${waiting} waiting for review, past the policy cap of ${cap} (policy.lessons.max_auto_candidates): ` +
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

function knownOf(lesson: Lesson, comparable: Comparable, item?: LoadedLesson): Known {
  return { lesson, ...(item ? { item } : {}), comparable, folded: foldText(comparableText(comparable)) };
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
