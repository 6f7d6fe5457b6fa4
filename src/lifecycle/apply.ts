import { UsageError } from '../errors.js';
import type { Application } from '../lesson/model.js';
import { uniqueSorted } from '../util/compare.js';
import { daysBetween, isIsoDate } from '../util/dates.js';
import { changeLessons, findLesson, refuse, type ChangeOptions } from './change.js';
import { MIN_DISTINCT_CONTEXTS } from '../lesson/evidence.js';

export interface ApplyOptions extends ChangeOptions {
  id: string;
  context: string;
  ref: string;
  /** YYYY-MM-DD the application was validated; today when absent. */
  date?: string | undefined;
}

export interface ApplyResult {
  id: string;
  path: string;
  /** `recorded`: a new application; `unchanged`: this context and ref were already recorded. */
  action: 'recorded' | 'unchanged';
  application: Application;
  /** The context already had an application: this one does not add a context. */
  repeatedContext: boolean;
  applications: number;
  contexts: string[];
  /** Distinct contexts a principle needs across its source patterns. */
  needed: number;
}

/** The context and ref of an application, trimmed; a usage error when one is empty or the date is not one. */
export function applicationInput(options: ApplyOptions): { context: string; ref: string } {
  const context = options.context.trim();
  const ref = options.ref.trim();
  if (context === '') throw new UsageError('--context is empty: name where the pattern was applied (a service, an app, a team)');
  if (ref === '') throw new UsageError('--ref is empty: name the PR or commit that applied the pattern (like "PR #812")');
  if (options.date !== undefined && !isIsoDate(options.date)) {
    throw new UsageError(`--date \`${options.date}\` is not a date: use YYYY-MM-DD`);
  }
  return { context, ref };
}

/** `--date` must not be after today. */
export function checkApplicationDate(date: string | undefined, today: string): void {
  if (date !== undefined && daysBetween(today, date) > 0) {
    throw new UsageError(`--date ${date} is in the future: an application is recorded once it is validated`);
  }
}

/** The result of adding `application` to a pattern's `recorded` ones: the same context and ref twice is one. */
export function applicationResult(id: string, file: string, recorded: readonly Application[], application: Application): ApplyResult {
  const existing = recorded.find((other) => other.context === application.context && other.ref === application.ref);
  const applications = existing ? recorded : [...recorded, application];
  return {
    id,
    path: file,
    action: existing ? 'unchanged' : 'recorded',
    application: existing ?? application,
    repeatedContext: recorded.some((other) => other.context === application.context),
    applications: applications.length,
    contexts: uniqueSorted(applications.map((other) => other.context)),
    needed: MIN_DISTINCT_CONTEXTS,
  };
}

/** Records a validated use of a pattern. The same context and ref twice is one application. */
export async function applyPattern(options: ApplyOptions): Promise<ApplyResult> {
  const { context, ref } = applicationInput(options);
  return changeLessons(options, (state) => {
    checkApplicationDate(options.date, state.today);
    const item = findLesson(state, options.id);
    const { lesson } = item;
    if (lesson.level !== 'pattern') {
      throw refuse(`\`${lesson.id}\` is a ${lesson.level}: applications are recorded on patterns (promote the cases to a pattern first)`);
    }
    if (lesson.status === 'retired') {
      throw refuse(`\`${lesson.id}\` is retired${lesson.superseded_by ? `: record the application on \`${lesson.superseded_by}\`` : ''}`);
    }
    // Only validated applications of validated patterns count towards a principle.
    if (lesson.status === 'candidate') {
      throw refuse(`\`${lesson.id}\` is a candidate pattern: only applications of validated patterns count; review it and run \`lessons accept ${lesson.id}\` first`);
    }
    const application: Application = { context, ref, validated_at: options.date ?? state.today };
    const result = applicationResult(lesson.id, item.path, lesson.applications, application);
    return { writes: result.action === 'unchanged' ? [] : [{ lesson: { ...state.whole(item), applications: [...lesson.applications, application] } }], result };
  });
}
