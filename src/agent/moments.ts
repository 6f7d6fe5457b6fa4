/**
 * The lessons a session starts with, as a pure function of the index entries. Prompts and tool
 * calls go through preflight's `selectForRequest`.
 */
import type { IndexEntry } from '../index/build.js';
import type { Severity } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import type { SelectedLesson } from '../preflight/report.js';

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

/** Canonical lessons of critical or high severity: critical first, then by id. */
export function sessionStartLessons(entries: readonly IndexEntry[], limit = SESSION_START_LIMIT): SelectedLesson[] {
  return entries
    .filter((entry) => entry.status === 'canonical' && (entry.severity === 'critical' || entry.severity === 'high'))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || compareStrings(a.id, b.id))
    .slice(0, limit)
    .map((entry) => toSelected(entry, 0, [`${entry.severity} severity, canonical`]));
}
