/**
 * The lessons a session starts with, and how many candidates wait for review, as pure
 * functions of the index entries. Prompts and tool calls go through preflight's `selectForRequest`.
 */
import type { IndexEntry } from '../index/build.js';
import type { Severity } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import type { SelectedLesson } from '../preflight/report.js';
import { formatLessons } from './format.js';

export const SESSION_START_LIMIT = 10;

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };

function toSelected(entry: IndexEntry, score: number, reasons: string[]): SelectedLesson {
  return {
    id: entry.id,
    level: entry.level,
    status: entry.status,
    severity: entry.severity,
    title: entry.title,
    path: entry.path,
    score,
    reasons,
    checklist: entry.checklist,
  };
}

/** What a session starts with: the heading of sessionStartLessons' list. */
export const SESSION_START_HEADING = 'Lessons from this repository (critical ones, validated or canonical, and canonical high-severity ones); keep their checklists in mind:';

/** Critical lessons that are validated or canonical, and canonical high-severity ones: critical first, then by id. */
export function sessionStartLessons(entries: readonly IndexEntry[], limit = SESSION_START_LIMIT): SelectedLesson[] {
  return entries
    .filter((entry) => (entry.status === 'canonical' && entry.severity === 'high') || ((entry.status === 'canonical' || entry.status === 'validated') && entry.severity === 'critical'))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || compareStrings(a.id, b.id))
    .slice(0, limit)
    .map((entry) => toSelected(entry, 0, [`${entry.severity} severity, ${entry.status}`]));
}

/** One line on the candidates waiting for review, or '' when none wait. */
export function candidatesNote(entries: readonly IndexEntry[]): string {
  const waiting = entries.filter((entry) => entry.status === 'candidate').length;
  if (waiting === 0) return '';
  return `${waiting} candidate lesson${waiting === 1 ? ' waits' : 's wait'} for review: lessons list --status candidate`;
}

/** What a session starts with: the lessons shown, and the text (the lessons, then the candidates line; '' when there is neither). */
export function sessionStart(entries: readonly IndexEntry[]): { lessons: SelectedLesson[]; text: string } {
  const lessons = sessionStartLessons(entries);
  const parts = [lessons.length > 0 ? formatLessons(SESSION_START_HEADING, lessons) : '', candidatesNote(entries)].filter((part) => part !== '');
  return { lessons, text: parts.join('\n') };
}
