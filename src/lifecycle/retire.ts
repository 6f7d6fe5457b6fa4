import { UsageError } from '../errors.js';
import { uniqueSorted } from '../util/compare.js';
import type { Lesson } from '../lesson/model.js';
import { changeLessons, findLesson, lookupIn, refuse, type ChangeOptions } from './change.js';
import { evidenceOf } from '../lesson/evidence.js';

export interface RetireOptions extends ChangeOptions {
  id: string;
  supersededBy?: string | undefined;
  reason?: string | undefined;
}

export interface RetireResult {
  id: string;
  path: string;
  superseded_by: string | null;
  retired_reason: string | null;
  /** Lessons that still name this one; lint warns about each. */
  referencedBy: string[];
}

/**
 * Retires a lesson: it stays in the tree, findable with list and show, but preflight and hooks
 * never select it again. Nothing is deleted, so the provenance of what it fed stays intact.
 */
export async function retireLesson(options: RetireOptions): Promise<RetireResult> {
  const reason = options.reason?.trim() || undefined;
  if (options.supersededBy === undefined && reason === undefined) {
    throw new UsageError('say what replaces the lesson or why it no longer holds: --superseded-by <id> or --reason "..."');
  }
  return changeLessons(options, (state) => {
    const item = findLesson(state, options.id);
    const { lesson } = item;
    if (lesson.status === 'retired') {
      throw refuse(`\`${lesson.id}\` is already retired (${lesson.superseded_by ? `superseded by ${lesson.superseded_by}` : lesson.retired_reason ?? 'no reason given'})`);
    }
    if (options.supersededBy !== undefined) {
      if (options.supersededBy === lesson.id) throw new UsageError('a lesson cannot supersede itself: name the lesson that replaces it');
      const replacement = findLesson(state, options.supersededBy).lesson;
      if (replacement.status === 'retired') {
        throw refuse(`\`${replacement.id}\` is retired too: name the lesson that replaces both${replacement.superseded_by ? ` (perhaps \`${replacement.superseded_by}\`)` : ''}`);
      }
    }
    const retired = { ...state.whole(item), status: 'retired' as const, superseded_by: options.supersededBy ?? null, retired_reason: reason ?? null };
    const referencedBy = uniqueSorted(
      state.lessons
        .filter(({ lesson: other }) => other.id !== lesson.id && other.status !== 'retired')
        .filter(({ lesson: other }) => [...other.source_case_ids, ...other.source_pattern_ids, other.duplicate_of].includes(lesson.id))
        .map(({ lesson: other }) => other.id),
    );
    const lookup = lookupIn(state);
    const after = (id: string): Lesson | undefined => (id === retired.id ? retired : lookup(id));
    for (const id of referencedBy) {
      const dependent = lookup(id)!;
      const evidence = evidenceOf(dependent, after);
      if (evidence && !evidence.ok) {
        throw refuse(`retiring \`${lesson.id}\` would leave the ${dependent.level} \`${id}\` without its evidence (${evidence.missing}): add other sources to it or retire it first`);
      }
    }
    return {
      writes: [{ lesson: retired }],
      result: { id: lesson.id, path: item.path, superseded_by: retired.superseded_by, retired_reason: retired.retired_reason, referencedBy },
    };
  });
}
