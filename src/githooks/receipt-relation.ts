/**
 * Which of a preflight receipt's lessons a commit may name in its `Lessons-Preflight:`
 * trailer: a receipt stands for a task, not for every commit of an afternoon, so its age alone
 * (an unrelated preflight 20 minutes ago) never makes it evidence. Pure.
 */
import type { Receipt } from '../guard/receipt.js';
import { terms } from '../search/engine.js';
import { pathMatches } from '../util/glob.js';

/** Words too common in tasks, commit messages and paths to relate one to the other. */
const COMMON = new Set([
  'add', 'and', 'change', 'fix', 'for', 'from', 'into', 'make', 'remove', 'the', 'this', 'that', 'update', 'use', 'with',
  'src', 'lib', 'test', 'tests', 'spec', 'index', 'main', 'app', 'docs', 'hotfix', 'chore', 'feat', 'wip',
]);

function significantTerms(text: string): Set<string> {
  return new Set(terms(text).filter((term) => term.length >= 3 && !COMMON.has(term)));
}

/** What the relation reads of a lesson the receipt selected (its index entry). */
export interface LessonFacts {
  title: string;
  tags: readonly string[];
  triggers: { paths: readonly string[]; keywords: readonly string[] };
}

export interface RelationInput {
  /** Only the receipt's task, paths and `selected` are read. */
  receipt: Pick<Receipt, 'task' | 'paths' | 'selected'>;
  stagedPaths: readonly string[];
  message: string;
  /** A selected lesson's facts, or undefined when the index no longer has it. */
  lessonOf: (id: string) => LessonFacts | undefined;
}

export interface Relation {
  /** The lessons the trailer names (all of `selected` when the receipt was for this change). */
  ids: string[];
  /** The receipt's lessons left out as unrelated to this change. */
  leftOut: string[];
  /** Why these, in words for the hook's output; when `used` is false, why the receipt was not used. */
  why: string;
  used: boolean;
}

/** The receipt as a whole relates: a staged path is among its paths, or the message or the staged paths share a word with its task. */
function receiptReason(input: RelationInput, changeTerms: Set<string>): string | undefined {
  const path = input.stagedPaths.find((file) => input.receipt.paths.some((glob) => pathMatches(glob, file)));
  if (path !== undefined) return `${path} is among the receipt's paths`;
  const shared = [...significantTerms(input.receipt.task)].find((term) => changeTerms.has(term));
  return shared === undefined ? undefined : `the change shares "${shared}" with the receipt's task`;
}

/** One lesson relates: a staged path matches its trigger paths, or the change shares a word with its title, tags or keywords. */
function lessonRelates(lesson: LessonFacts | undefined, input: RelationInput, changeTerms: Set<string>): boolean {
  if (lesson === undefined) return false;
  if (input.stagedPaths.some((file) => lesson.triggers.paths.some((glob) => pathMatches(glob, file)))) return true;
  const own = significantTerms([lesson.title, ...lesson.tags, ...lesson.triggers.keywords].join(' '));
  return [...own].some((term) => changeTerms.has(term));
}

/** Which of the receipt's lessons speak for this commit, and why (or why none does). */
export function receiptRelation(input: RelationInput): Relation {
  const changeTerms = significantTerms(`${input.message}\n${input.stagedPaths.join('\n')}`);
  const { selected } = input.receipt;
  const reason = receiptReason(input, changeTerms);
  if (reason !== undefined) return { ids: [...selected], leftOut: [], why: reason, used: true };
  const ids = selected.filter((id) => lessonRelates(input.lessonOf(id), input, changeTerms));
  const leftOut = selected.filter((id) => !ids.includes(id));
  if (ids.length > 0) return { ids, leftOut, why: `${ids.join(', ')} relate${ids.length === 1 ? 's' : ''} to the staged change`, used: true };
  const lessons = selected.length === 0 ? 'it selected no lesson' : `none of its lessons (${selected.join(', ')}) does`;
  return { ids: [], leftOut, why: `it was for "${input.receipt.task}": the staged paths and the message do not relate to that task, and ${lessons}`, used: false };
}
