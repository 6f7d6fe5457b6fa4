import type { Level, Severity } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { inferProject } from '../policy/projects.js';
import { type SearchIndex, VOCABULARY } from '../search/engine.js';
import { byKey } from '../util/compare.js';
import { buildQuery, type PreflightInput, type Query } from './query.js';
import { rankLessons, type RankedLesson } from './rank.js';
import { selectTiers } from './select.js';

/**
 * The lessons for a change (a pull request): those whose triggers match the paths it touches or
 * the commands it is checked with, and those preflight selects for one of its commit subjects
 * taken as a task. The apply tier only; at most `policy.preflight.change_max`, listed by id so
 * that a comment rewritten for a later push changes only where the lessons did.
 */

/** What is known of the change, from the range the guard already read. */
export interface ChangeContext {
  /** Repo-relative POSIX paths the range adds, modifies or deletes, in git's order. */
  paths: readonly string[];
  /** The commands the change is checked with (the policy's quality commands in CI). */
  commands: readonly string[];
  /** The subjects of its commits (merges left out), oldest first. */
  subjects: readonly string[];
}

/** One lesson of the section: what a reviewer reads, and why it is there, in words that do not change between runs. */
export interface ChangeLesson {
  id: string;
  title: string;
  level: Level;
  severity: Severity;
  path: string;
  checklist: string[];
  /** `trigger: path **\/package.json matches package.json`, `commit: "Bump the version"`. */
  why: string[];
}

export interface ChangeLessons {
  lessons: ChangeLesson[];
  /** The policy's limit, and how many more lessons applied past it. */
  max: number;
  left_out: number;
  /** How much of the change was read (huge ranges are read in part): paths and subjects, each as `read` of `total`. */
  paths: { read: number; total: number };
  subjects: { read: number; total: number };
}

/**
 * Past these, a range's paths and subjects are read in part (the section says so): the work stays
 * bounded (each subject is one preflight ranking, some 20 ms on this repository's lessons).
 */
export const CHANGE_PATHS_MAX = 5000;
export const CHANGE_SUBJECTS_MAX = 30;

interface Candidate {
  ranked: RankedLesson;
  why: string;
}

/**
 * The lessons whose path or command triggers match: a query of no words (the paths' words would
 * only add text matches, which the section does not take), through preflight's hook-mode apply
 * tier (trigger matches first, critical first within them).
 */
function triggered(index: SearchIndex, input: PreflightInput, policy: Policy, now: Date, max: number): Candidate[] {
  if (input.paths.length === 0 && input.command === null) return [];
  const query: Query = { ...input, terms: [], sequence: [] };
  const wide = { ...policy, preflight: { ...policy.preflight, hook_max: max } };
  return selectTiers(rankLessons(index, query, policy, now), input, wide).apply
    .filter((ranked) => ranked.trigger !== undefined)
    .map((ranked) => ({ ranked, why: `trigger: ${ranked.trigger!.reasons[0]!}` }));
}

/** The apply tier preflight gives each subject as a task, in subject order, each subject's lessons in rank order. */
function fromSubjects(index: SearchIndex, subjects: readonly string[], project: string | null, policy: Policy, now: Date): Candidate[] {
  const found: Candidate[] = [];
  for (const subject of subjects) {
    const input: PreflightInput = { task: subject, paths: [], tool: null, command: null, project };
    const ranked = rankLessons(index, buildQuery(input, VOCABULARY), policy, now);
    for (const lesson of selectTiers(ranked, input, policy).apply) found.push({ ranked: lesson, why: `commit: "${subject}"` });
  }
  return found;
}

/** The distinct values of a list, in its order, at most `max` of them. */
function distinct(values: readonly string[], max: number): string[] {
  return [...new Set(values)].slice(0, max);
}

/** The section's lessons for `change`, from `index` (the head's lessons). Pure apart from the lazy reads behind `index`. */
export function selectForChange(index: SearchIndex, change: ChangeContext, policy: Policy, now: Date): ChangeLessons {
  const max = policy.preflight.change_max;
  const paths = distinct(change.paths, CHANGE_PATHS_MAX);
  const subjects = distinct(change.subjects, CHANGE_SUBJECTS_MAX);
  const project = inferProject(policy.projects, paths);
  const command = change.commands.length === 0 ? null : change.commands.join(' && ');
  const candidates = [
    ...triggered(index, { task: '', paths, tool: null, command, project }, policy, now, max),
    ...fromSubjects(index, subjects, project, policy, now),
  ];
  // Priority decides which lessons the limit keeps: trigger matches, then subjects in order; each lesson once, with every reason it came by.
  const chosen = new Map<number, { ranked: RankedLesson; why: string[] }>();
  for (const { ranked, why } of candidates) {
    const known = chosen.get(ranked.doc);
    if (known === undefined) chosen.set(ranked.doc, { ranked, why: [why] });
    else if (!known.why.includes(why)) known.why.push(why);
  }
  const kept = [...chosen.values()].slice(0, max);
  const lessons = kept.map(({ ranked, why }) => {
    const record = index.record(ranked.doc);
    return { id: record.id, title: record.title, level: record.level, severity: record.severity, path: record.path, checklist: record.checklist, why };
  });
  return {
    lessons: lessons.sort(byKey((lesson) => lesson.id)),
    max,
    left_out: chosen.size - kept.length,
    paths: { read: paths.length, total: new Set(change.paths).size },
    subjects: { read: subjects.length, total: new Set(change.subjects).size },
  };
}
