/**
 * Use and efficacy, from the two records of a lesson being shown: the `Lessons-Preflight:`
 * trailers of commits and the agent hooks' session records. Pure: the history is passed in.
 */
import { isIncidentCommit, LESSON_TRAILER, PREFLIGHT_TRAILER, trailerValues } from '../guard/commits.js';
import type { SessionRecord } from '../agent/session.js';
import type { LoggedCommit } from '../io/git/log.js';
import type { Lesson } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';

/** The weeks the selection timeline spans at most, ending with the week of today. */
export const TIMELINE_WEEKS = 26;

export interface LessonUsage {
  id: string;
  /** Commits and sessions that showed it. */
  selected: number;
  last_selected: string | null;
}

export interface WeekCount {
  /** The Monday that starts the week, YYYY-MM-DD. */
  week: string;
  count: number;
}

export interface Usage {
  /** false outside git or before the first commit. */
  available: boolean;
  commits_with_trailer: number;
  sessions: number;
  lessons: LessonUsage[];
  never_used: string[];
  /** Selections (one per lesson shown) per week, the last TIMELINE_WEEKS weeks. */
  by_week: WeekCount[];
}

export interface Recurrence {
  kind: 'occurrence' | 'incident';
  date: string;
  /** The incident commit, or the lesson's last_seen for a bumped occurrence. */
  ref: string;
}

export interface LessonEfficacy {
  id: string;
  shown: number;
  first_shown: string;
  /** Shown before work, and the mistake came back afterwards. */
  working: boolean;
  recurrences: Recurrence[];
}

export interface Efficacy {
  /** Not working first, then by id. */
  lessons: LessonEfficacy[];
  not_working: number;
}

/** One time a set of lessons was put in front of someone. */
interface Shown {
  ids: readonly string[];
  time: number;
  date: string;
}

export interface History {
  /** Undefined when there is no git history to read. */
  commits: readonly LoggedCommit[] | undefined;
  sessions: readonly SessionRecord[];
  incident: { patterns: readonly RegExp[]; trailers: readonly string[] };
}

const DAY_MS = 86_400_000;

function isoDate(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The Monday of the week `date` (YYYY-MM-DD) falls in. */
export function weekOf(date: string): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  return isoDate(time - ((new Date(time).getUTCDay() + 6) % 7) * DAY_MS);
}

function ids(value: string): string[] {
  return value.split(/[\s,]+/).filter((id) => id !== '' && id.toLowerCase() !== 'none');
}

function shownEvents(history: History): Shown[] {
  const events: Shown[] = [];
  for (const commit of history.commits ?? []) {
    const values = trailerValues(commit, PREFLIGHT_TRAILER);
    if (values.length > 0) events.push({ ids: [...new Set(values.flatMap(ids))], time: commit.time, date: commit.date });
  }
  // A session record is dated by its last write: it showed its lessons no later than that.
  for (const session of history.sessions) events.push({ ids: [...new Set(session.shown)], time: session.time, date: isoDate(session.time) });
  return events;
}

export function usageOf(lessons: readonly Lesson[], history: History, today: string): Usage {
  const events = shownEvents(history);
  const commitsWithTrailer = events.length - history.sessions.length;
  const selected = new Map<string, { count: number; last: string }>();
  for (const event of events) {
    for (const id of event.ids) {
      const current = selected.get(id);
      selected.set(id, { count: (current?.count ?? 0) + 1, last: current && current.last > event.date ? current.last : event.date });
    }
  }
  const known = lessons.filter((lesson) => lesson.status !== 'retired').map((lesson) => lesson.id).sort(compareStrings);
  const used: LessonUsage[] = known
    .filter((id) => selected.has(id))
    .map((id) => ({ id, selected: selected.get(id)!.count, last_selected: selected.get(id)!.last }))
    .sort((a, b) => b.selected - a.selected || compareStrings(a.id, b.id));
  return {
    available: history.commits !== undefined,
    commits_with_trailer: commitsWithTrailer,
    sessions: history.sessions.length,
    lessons: used,
    never_used: events.length === 0 ? [] : known.filter((id) => !selected.has(id)),
    by_week: timeline(events, today),
  };
}

function timeline(events: readonly Shown[], today: string): WeekCount[] {
  const last = Date.parse(`${weekOf(today)}T00:00:00Z`);
  const weeks = Array.from({ length: TIMELINE_WEEKS }, (_, n) => ({ week: isoDate(last - (TIMELINE_WEEKS - 1 - n) * 7 * DAY_MS), count: 0 }));
  const position = new Map(weeks.map((week, n) => [week.week, n]));
  for (const event of events) {
    const n = position.get(weekOf(event.date));
    if (n !== undefined) weeks[n]!.count += event.ids.length;
  }
  return weeks;
}

/**
 * Whether the lesson's occurrences were bumped since the day it was first shown. last_seen keeps
 * only the day: a bump on that day counts. A lesson written with occurrences already counted
 * (promote sums its sources', `new --date` backdates) has last_seen == created_at: that is
 * its birth, not a recurrence, until a later day's bump moves last_seen on.
 */
function recurredSinceShown(lesson: Lesson, shownDate: string): boolean {
  if (lesson.occurrences <= 1 || lesson.last_seen === null || lesson.last_seen < shownDate) return false;
  return lesson.created_at === null || lesson.last_seen > lesson.created_at;
}

/**
 * For each lesson shown before work: did the mistake come back after it was first shown? Its
 * occurrences were bumped on or after that day (capture sets last_seen when it bumps them), or an incident
 * commit made later names it with `Lesson: <id>`.
 */
export function efficacyOf(lessons: readonly Lesson[], history: History): Efficacy {
  const first = new Map<string, { time: number; date: string; count: number }>();
  for (const event of shownEvents(history)) {
    for (const id of event.ids) {
      const current = first.get(id);
      if (!current) first.set(id, { time: event.time, date: event.date, count: 1 });
      else first.set(id, { ...(event.time < current.time ? { time: event.time, date: event.date } : current), count: current.count + 1 });
    }
  }
  const incidents = new Map<string, LoggedCommit[]>();
  for (const commit of history.commits ?? []) {
    if (!isIncidentCommit(commit, history.incident.patterns, history.incident.trailers)) continue;
    for (const id of new Set(trailerValues(commit, LESSON_TRAILER).flatMap(ids))) incidents.set(id, [...(incidents.get(id) ?? []), commit]);
  }
  const result: LessonEfficacy[] = [];
  for (const lesson of lessons) {
    const shown = first.get(lesson.id);
    if (!shown) continue;
    const recurrences: Recurrence[] = (incidents.get(lesson.id) ?? [])
      .filter((commit) => commit.time > shown.time)
      .map((commit) => ({ kind: 'incident' as const, date: commit.date, ref: commit.commit.slice(0, 12) }));
    if (recurredSinceShown(lesson, shown.date)) {
      recurrences.push({ kind: 'occurrence', date: lesson.last_seen!, ref: `occurrences ${lesson.occurrences}` });
    }
    recurrences.sort((a, b) => compareStrings(a.date, b.date) || compareStrings(a.ref, b.ref));
    result.push({ id: lesson.id, shown: shown.count, first_shown: shown.date, working: recurrences.length === 0, recurrences });
  }
  result.sort((a, b) => Number(a.working) - Number(b.working) || compareStrings(a.id, b.id));
  return { lessons: result, not_working: result.filter((item) => !item.working).length };
}
