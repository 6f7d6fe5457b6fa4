import { UsageError } from '../errors.js';
import type { Application } from '../lesson/model.js';
import { uniqueSorted } from '../util/compare.js';
import { daysBetween, isIsoDate } from '../util/dates.js';
import { changeLessons, findLesson, refuse, type ChangeOptions } from './change.js';
import { MIN_DISTINCT_CONTEXTS } from './evidence.js';

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

/** Records a validated use of a pattern. The same context and ref twice is one application. */
export async function applyPattern(options: ApplyOptions): Promise<ApplyResult> {
  const context = options.context.trim();
  const ref = options.ref.trim();
  if (context === '') throw new UsageError('--context is empty: name where the pattern was applied (a service, an app, a team)');
  if (ref === '') throw new UsageError('--ref is empty: name the PR or commit that applied the pattern (like "PR #812")');
  if (options.date !== undefined && !isIsoDate(options.date)) {
    throw new UsageError(`--date \`${options.date}\` is not a date: use YYYY-MM-DD`);
  }
  return changeLessons(options, (state) => {
    if (options.date !== undefined && daysBetween(state.today, options.date) > 0) {
      throw new UsageError(`--date ${options.date} is in the future: an application is recorded once it is validated`);
    }
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
    const existing = lesson.applications.find((other) => other.context === context && other.ref === ref);
    const repeatedContext = lesson.applications.some((other) => other.context === context);
    const applications = existing ? lesson.applications : [...lesson.applications, application];
    const result: ApplyResult = {
      id: lesson.id,
      path: item.path,
      action: existing ? 'unchanged' : 'recorded',
      application: existing ?? application,
      repeatedContext,
      applications: applications.length,
      contexts: uniqueSorted(applications.map((other) => other.context)),
      needed: MIN_DISTINCT_CONTEXTS,
    };
    return { writes: existing ? [] : [{ lesson: { ...lesson, applications } }], result };
  });
}
