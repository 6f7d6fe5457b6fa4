/** The shape of the tree: how old the validations are, how lessons were promoted. Pure. */
import type { Lesson, Level, Status } from '../lesson/model.js';
import { byKey, compareStrings } from '../util/compare.js';
import { daysBetween, isIsoDate } from '../util/dates.js';

export interface AgeBucket {
  label: string;
  count: number;
  /** Past the policy limit. */
  over: boolean;
}

/** Counts by age in days: `edges` are the upper bounds of each bucket but the last (open). */
function bucketsOf(days: readonly number[], edges: readonly number[], limit: number): AgeBucket[] {
  const buckets = edges.map((edge, n) => ({ label: `${n === 0 ? 0 : edges[n - 1]! + 1}-${edge} d`, count: 0, over: edge > limit }));
  buckets.push({ label: `> ${edges.at(-1)} d`, count: 0, over: edges.at(-1)! >= limit });
  for (const day of days) {
    const n = edges.findIndex((edge) => day <= edge);
    buckets[n < 0 ? buckets.length - 1 : n]!.count++;
  }
  return buckets;
}

function ageDays(date: string | null, today: string): number | null {
  return date !== null && isIsoDate(date) ? Math.max(0, daysBetween(date, today)) : null;
}

/** Validated and canonical lessons by days since last_validated_at, in steps of a quarter of the policy limit. */
export function agingOf(lessons: readonly Lesson[], today: string, limit: number): { buckets: AgeBucket[]; never: number } {
  const subject = lessons.filter((lesson) => lesson.status === 'validated' || lesson.status === 'canonical');
  const days = subject.map((lesson) => ageDays(lesson.last_validated_at, today));
  const quarter = Math.max(1, Math.round(limit / 4));
  const edges = [quarter, 2 * quarter, 3 * quarter, limit, limit + 2 * quarter, 2 * limit];
  return { buckets: bucketsOf(days.filter((day): day is number => day !== null), edges, limit), never: days.filter((day) => day === null).length };
}

/** Candidates by days since created_at. */
export function candidateAgesOf(candidates: readonly { created_at: string | null }[], today: string): { buckets: AgeBucket[]; undated: number } {
  const days = candidates.map((candidate) => ageDays(candidate.created_at, today));
  return { buckets: bucketsOf(days.filter((day): day is number => day !== null), [30, 90, 180, 365], Infinity), undated: days.filter((day) => day === null).length };
}

export interface GraphNode {
  id: string;
  level: Level;
  status: Status;
}

/** The promotion graph: cases -> patterns (source_case_ids) -> principles (source_pattern_ids). */
export interface PromotionGraph {
  nodes: GraphNode[];
  edges: { from: string; to: string }[];
}

export function promotionGraphOf(lessons: readonly Lesson[]): PromotionGraph {
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]));
  const edges: PromotionGraph['edges'] = [];
  for (const lesson of lessons) {
    const sources = lesson.level === 'pattern' ? lesson.source_case_ids : lesson.level === 'principle' ? lesson.source_pattern_ids : [];
    for (const from of new Set(sources)) if (byId.has(from) && from !== lesson.id) edges.push({ from, to: lesson.id });
  }
  edges.sort((a, b) => compareStrings(a.to, b.to) || compareStrings(a.from, b.from));
  const ids = new Set(edges.flatMap((edge) => [edge.from, edge.to]));
  const nodes = [...ids].map((id) => byId.get(id)!).map((lesson) => ({ id: lesson.id, level: lesson.level, status: lesson.status }));
  return { nodes: nodes.sort(byKey((node) => node.id)), edges };
}
