import type { Lesson, Status } from './model.js';
import type { Finding } from './finding.js';
import { compareFindings } from './finding.js';
import { sortStrings } from '../util/compare.js';
import { evidenceOf } from './evidence.js';

/** One side of a pull request: the lessons of the tree at a commit. */
export interface LessonAt {
  lesson: Lesson;
  /** Repo-relative POSIX path. */
  path: string;
}

/**
 * The head side as a whole, when the lists given hold only the lessons of some ids (the ids a
 * change touches; every lesson of those ids on each side, in path order): `lookup` finds any
 * head lesson by id (the first of its id), `referrers` the head's first-of-their-id lessons in
 * path order that may name an id (at least all that do).
 */
export interface WholeHead {
  lookup: (id: string) => Lesson | undefined;
  referrers: (id: string) => LessonAt[];
}

/** The ids a lesson names: its sources, what it duplicates or is superseded by, what it was promoted to. */
export function namedIds(lesson: Lesson): string[] {
  return [...sourcesOf(lesson), ...(lesson.duplicate_of ? [lesson.duplicate_of] : []), ...(lesson.superseded_by ? [lesson.superseded_by] : []), ...lesson.promoted_to];
}

/** Where a status stands on the one road it may travel; retired is off the road. */
const STATUS_RANK: Record<Exclude<Status, 'retired'>, number> = { candidate: 0, validated: 1, canonical: 2 };

/**
 * What changed between base and head that the lifecycle commands would have refused. The
 * guard's promotion gate calls this with the lessons of both sides. The rules:
 * - status moves only candidate -> validated -> canonical (skipping a step is one `accept
 *   --canonical`), or to retired; every forward move and every return from retired is a
 *   re-validation, so it advances last_validated_at, as `lessons accept` does;
 * - a new lesson starts validated or canonical only with a last_validated_at;
 * - the level of an existing lesson never changes: promotion writes a new lesson, and new or
 *   re-sourced patterns and principles carry their evidence;
 * - provenance is kept: sources are not dropped from a pattern or principle, and a lesson
 *   others reference is retired, not deleted.
 */
export function transitionFindings(base: readonly LessonAt[], head: readonly LessonAt[], whole?: WholeHead): Finding[] {
  const before = firstById(base);
  const after = firstById(head);
  const lookup = whole?.lookup ?? ((id: string): Lesson | undefined => after.get(id)?.lesson);
  const referrers = whole?.referrers ?? ((): LessonAt[] => [...after.values()]);
  const findings: Finding[] = [];
  for (const item of after.values()) {
    const old = before.get(item.lesson.id);
    findings.push(...(old ? changedLesson(old, item) : newLesson(item)));
    const resourced = !old || sourcesOf(old.lesson).join() !== sourcesOf(item.lesson).join();
    // A candidate is a proposal that may still gather its evidence; it needs it once it leaves candidate.
    const leftCandidate = old?.lesson.status === 'candidate' && item.lesson.status !== 'candidate';
    const judged = item.lesson.status !== 'retired' && item.lesson.status !== 'candidate';
    if ((resourced || leftCandidate) && judged && (!old || old.lesson.level === item.lesson.level)) {
      const evidence = evidenceOf(item.lesson, lookup);
      if (evidence && !evidence.ok) {
        findings.push(finding(item, 'evidence', sourceField(item.lesson), `not enough evidence for a ${item.lesson.level}: ${evidence.missing}`));
      }
    }
  }
  for (const old of before.values()) {
    if (!after.has(old.lesson.id)) findings.push(...deletedLesson(old, referrers(old.lesson.id)));
  }
  return findings.sort(compareFindings);
}

function changedLesson(old: LessonAt, item: LessonAt): Finding[] {
  const { lesson } = item;
  const was = old.lesson;
  const findings: Finding[] = [];
  if (was.level !== lesson.level) {
    findings.push(
      finding(item, 'transition-level', 'level', `\`${lesson.id}\` changed level from ${was.level} to ${lesson.level} by an edit: restore it, and write the ${lesson.level} as a new lesson with \`lessons promote <ids> --to ${lesson.level === 'case' ? 'pattern' : lesson.level}\` (the sources stay)`),
    );
  }
  const revalidated = lesson.last_validated_at !== null && (was.last_validated_at === null || lesson.last_validated_at > was.last_validated_at);
  if (was.status === 'retired' && lesson.status !== 'retired' && !revalidated) {
    findings.push(finding(item, 'transition-status', 'status', `\`${lesson.id}\` came back from retired to ${lesson.status} without re-validation (last_validated_at not advanced): run \`lessons accept ${lesson.id}\``));
  } else if (was.status !== 'retired' && lesson.status !== 'retired') {
    const step = STATUS_RANK[lesson.status] - STATUS_RANK[was.status];
    if (step < 0) {
      findings.push(finding(item, 'transition-status', 'status', `\`${lesson.id}\` moved back from ${was.status} to ${lesson.status}: status only moves candidate -> validated -> canonical; retire it with \`lessons retire\` instead`));
    } else if (step > 0 && !revalidated) {
      findings.push(finding(item, 'transition-status', 'status', `\`${lesson.id}\` moved from ${was.status} to ${lesson.status} without validation (last_validated_at not advanced): run \`lessons accept ${lesson.id}${lesson.status === 'canonical' ? ' --canonical' : ''}\``));
    }
  }
  const dropped = sourcesOf(was).filter((id) => !sourcesOf(lesson).includes(id));
  if (dropped.length > 0 && was.level === lesson.level) {
    findings.push(finding(item, 'provenance', sourceField(lesson), `\`${lesson.id}\` dropped its source${dropped.length === 1 ? '' : 's'} ${dropped.map((id) => `\`${id}\``).join(', ')}: provenance is never lost; retire the ${lesson.level} and promote a new one instead`));
  }
  return findings;
}

function newLesson(item: LessonAt): Finding[] {
  const { lesson } = item;
  if ((lesson.status === 'validated' || lesson.status === 'canonical') && lesson.last_validated_at === null) {
    return [finding(item, 'transition-status', 'status', `new lesson \`${lesson.id}\` is ${lesson.status} without last_validated_at: add it as a candidate and run \`lessons accept ${lesson.id}\``)];
  }
  return [];
}

function deletedLesson(old: LessonAt, head: readonly LessonAt[]): Finding[] {
  const { id } = old.lesson;
  const referrers = head
    .filter(({ lesson }) => namedIds(lesson).includes(id))
    .map(({ lesson }) => lesson.id);
  if (referrers.length > 0) {
    return [
      { rule: 'deleted-referenced', severity: 'error', file: old.path, message: `\`${id}\` was deleted but ${referrers.join(', ')} still reference${referrers.length === 1 ? 's' : ''} it: retire it with \`lessons retire\` instead of deleting` },
    ];
  }
  if (old.lesson.status === 'validated' || old.lesson.status === 'canonical') {
    return [{ rule: 'deleted', severity: 'warning', file: old.path, message: `${old.lesson.status} lesson \`${id}\` was deleted: retire it with \`lessons retire\` so it stays findable` }];
  }
  return [];
}

function firstById(items: readonly LessonAt[]): Map<string, LessonAt> {
  const byId = new Map<string, LessonAt>();
  for (const item of items) if (item.lesson.id !== '' && !byId.has(item.lesson.id)) byId.set(item.lesson.id, item);
  return byId;
}

function sourcesOf(lesson: Lesson): string[] {
  return sortStrings([...lesson.source_case_ids, ...lesson.source_pattern_ids]);
}

function sourceField(lesson: Lesson): string {
  return lesson.level === 'principle' ? 'source_pattern_ids' : 'source_case_ids';
}

function finding(item: LessonAt, rule: string, field: string, message: string): Finding {
  return { rule, severity: 'error', file: item.path, field, message };
}
