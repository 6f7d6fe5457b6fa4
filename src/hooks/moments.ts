/**
 * Which lessons each agent moment shows, as pure functions of the index entries:
 * session start (critical and high canonical lessons) and a tool call (trigger matches).
 * Text prompts go through `selectLessons` (engine.ts).
 */
import type { IndexEntry } from '../index/build.js';
import type { Severity } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import type { Selected } from './engine.js';
import { SEVERITY_WEIGHT } from './engine.js';
import type { TriggerEntry } from './index-read.js';
import { matchTriggers, type ToolAction } from './triggers.js';

export const SESSION_START_LIMIT = 10;
export const TOOL_CALL_LIMIT = 3;

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };

function toSelected(entry: TriggerEntry, score: number, reasons: string[]): Selected {
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
export function sessionStartLessons(entries: readonly IndexEntry[], limit = SESSION_START_LIMIT): Selected[] {
  return entries
    .filter((entry) => entry.status === 'canonical' && (entry.severity === 'critical' || entry.severity === 'high'))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || compareStrings(a.id, b.id))
    .slice(0, limit)
    .map((entry) => toSelected(entry, 0, [`${entry.severity} severity, canonical`]));
}

/**
 * Lessons whose triggers fire for a tool call, at most `limit`: ranked by how much matched
 * (a path or command beats a bare tool name), then severity, then id. Retired lessons never fire.
 */
export function toolCallLessons(entries: readonly TriggerEntry[], action: ToolAction, limit = TOOL_CALL_LIMIT): Selected[] {
  const hits: Selected[] = [];
  for (const entry of entries) {
    if (entry.status === 'retired') continue;
    const { tools, paths, commands } = entry.triggers;
    if (tools.length === 0 && paths.length === 0 && commands.length === 0) continue;
    const match = matchTriggers(entry.triggers, action);
    if (!match.matched) continue;
    const score = Math.round(match.reasons.length * 10 * SEVERITY_WEIGHT[entry.severity] * 1000) / 1000;
    hits.push(toSelected(entry, score, match.reasons));
  }
  hits.sort((a, b) => b.score - a.score || compareStrings(a.id, b.id));
  return hits.slice(0, limit);
}
