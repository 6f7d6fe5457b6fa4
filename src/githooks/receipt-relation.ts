/**
 * Whether a commit is part of the task a preflight receipt was for: a receipt stands for a
 * task, not for every commit of an afternoon. Pure.
 */
import type { Receipt } from '../guard/receipt.js';
import { terms } from '../search/text.js';
import { pathMatches } from '../util/glob.js';

/** Words too common in tasks and commit messages to relate one to the other. */
const COMMON = new Set(['add', 'and', 'change', 'fix', 'for', 'from', 'into', 'make', 'remove', 'the', 'this', 'that', 'update', 'use', 'with']);

function significantTerms(text: string): Set<string> {
  return new Set(terms(text).filter((term) => term.length >= 3 && !COMMON.has(term)));
}

export interface RelationInput {
  receipt: Pick<Receipt, 'task' | 'paths'>;
  ageMinutes: number;
  /** policy.preflight.trailer_window_minutes */
  windowMinutes: number;
  stagedPaths: readonly string[];
  message: string;
}

/** Why the receipt speaks for this commit, or undefined when it does not. */
export function receiptRelation(input: RelationInput): string | undefined {
  if (input.ageMinutes <= input.windowMinutes) return `the receipt is ${input.ageMinutes} min old (window ${input.windowMinutes} min)`;
  const path = input.stagedPaths.find((file) => input.receipt.paths.some((glob) => pathMatches(glob, file)));
  if (path !== undefined) return `${path} is among the receipt's paths`;
  const task = significantTerms(input.receipt.task);
  const shared = [...significantTerms(input.message)].filter((term) => task.has(term));
  return shared.length > 0 ? `the message shares "${shared[0]}" with the receipt's task` : undefined;
}
