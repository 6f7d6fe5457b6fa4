import { selectForRequest } from '../preflight/preflight.js';
import type { Policy } from '../policy/policy.js';
import type { ReviewLesson } from './prompt.js';

/** The most lessons one review prompt carries. */
export const MAX_REVIEW_LESSONS = 8;

/** How many words of the changed lines join the commit messages as the task. */
const DIFF_WORDS = 80;

/** The words of a diff's added and removed lines, in order, without the diff's own markup. */
export function changedWords(diff: string, max = DIFF_WORDS): string[] {
  const words: string[] = [];
  for (const line of diff.split('\n')) {
    if (!/^[+-]/.test(line) || /^(\+\+\+|---) /.test(line)) continue;
    for (const word of line.slice(1).split(/[^\p{L}\p{N}]+/u)) {
      if (word.length < 2 || /^\d+$/.test(word)) continue;
      words.push(word);
      if (words.length >= max) return words;
    }
  }
  return words;
}

/**
 * The lessons a review should check: preflight's selection, with the commit messages and the
 * first words of the changed lines as the task, and the changed files as paths (so path
 * triggers count).
 */
export async function selectForReview(
  root: string,
  change: { commitMessages: string; diff: string; paths: readonly string[] },
  policy: Policy,
  now: Date,
): Promise<ReviewLesson[]> {
  const task = `${change.commitMessages} ${changedWords(change.diff).join(' ')}`.replace(/\s+/g, ' ').trim();
  const selected = await selectForRequest(root, { task, paths: change.paths, policy, now, limit: MAX_REVIEW_LESSONS });
  return selected.map((lesson) => ({ id: lesson.id, title: lesson.title, level: lesson.level, severity: lesson.severity, checklist: lesson.checklist }));
}
