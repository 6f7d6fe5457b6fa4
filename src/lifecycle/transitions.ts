import type { Lesson } from '../lesson/model.js';
import type { Finding } from '../lint/finding.js';

/** One side of a pull request: the lessons of the tree at a commit. */
export interface LessonAt {
  lesson: Lesson;
  /** Repo-relative POSIX path. */
  path: string;
}

/**
 * What changed between base and head that the lifecycle commands would have refused.
 * The guard's promotion gate calls this with the lessons of both sides.
 */
export function transitionFindings(base: readonly LessonAt[], head: readonly LessonAt[]): Finding[] {
  const headIds = new Set(head.map((item) => item.lesson.id));
  const findings: Finding[] = [];
  for (const { lesson, path } of base) {
    if (headIds.has(lesson.id)) continue;
    const referrers = head.filter(({ lesson: other }) =>
      [...other.source_case_ids, ...other.source_pattern_ids, other.duplicate_of, other.superseded_by].includes(lesson.id),
    );
    if (referrers.length === 0) continue;
    findings.push({
      rule: 'deleted-referenced',
      severity: 'error',
      file: path,
      message: `\`${lesson.id}\` was deleted but ${referrers.map((r) => r.lesson.id).join(', ')} still reference it: retire it with \`lessons retire\` instead of deleting`,
    });
  }
  return findings;
}
