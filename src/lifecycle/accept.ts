import type { Status } from '../lesson/model.js';
import { placeholderMessage, placeholdersIn } from '../lint/placeholders.js';
import { changeLessons, findLesson, lessonErrors, refuse, type ChangeOptions } from './change.js';

export interface AcceptOptions extends ChangeOptions {
  id: string;
  canonical: boolean;
}

export interface AcceptResult {
  id: string;
  path: string;
  from: Status;
  to: Status;
  last_validated_at: string;
}

/**
 * candidate -> validated -> canonical, stamping last_validated_at with today. Accepting a
 * validated or canonical lesson again re-validates it (never demotes); accepting a retired
 * one brings it back, re-validated. Refused when the lesson at its new status is not lint-clean.
 */
export async function acceptLesson(options: AcceptOptions): Promise<AcceptResult> {
  return changeLessons(options, (state) => {
    const item = findLesson(state, options.id);
    const from = item.lesson.status;
    const to: Status = options.canonical || from === 'canonical' ? 'canonical' : 'validated';
    const lesson = {
      ...state.whole(item),
      status: to,
      last_validated_at: state.today,
      ...(from === 'retired' ? { superseded_by: null, retired_reason: null } : {}),
    };
    const placeholders = placeholdersIn(lesson.body);
    if (placeholders.length > 0) {
      const lines = placeholders.map((placeholder) => `  ${item.path}: [placeholder] ${placeholderMessage(placeholder)}`);
      throw refuse(`cannot accept \`${options.id}\`: it still holds text written for you to replace:\n${lines.join('\n')}\nthen run \`lessons accept ${options.id}${options.canonical ? ' --canonical' : ''}\` again`);
    }
    const errors = lessonErrors(state, lesson);
    if (errors.length > 0) {
      // No line numbers: they would point into the file as accept would have written it.
      const lines = errors.map((finding) => `  ${finding.file}: [${finding.rule}] ${finding.message}`);
      throw refuse(`cannot accept \`${options.id}\` as ${to}: it would not be lint-clean:\n${lines.join('\n')}\nfix the lesson, then run \`lessons accept ${options.id}${options.canonical ? ' --canonical' : ''}\` again`);
    }
    return { writes: [{ lesson }], result: { id: lesson.id, path: item.path, from, to, last_validated_at: state.today } };
  });
}
