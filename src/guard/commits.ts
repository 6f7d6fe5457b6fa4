import type { CommitInfo } from '../io/git/log.js';
import type { IncidentPolicy } from '../policy/policy.js';
import type { Issue } from './finding.js';

export const PREFLIGHT_TRAILER = 'Lessons-Preflight';
export const LESSON_TRAILER = 'Lesson';
export const LESSON_SKIP_TRAILER = 'Lesson-Skip';

/** Trailer keys compare case-insensitively, as git compares them. */
export function trailerValues(commit: Pick<CommitInfo, 'trailers'>, key: string): string[] {
  const wanted = key.toLowerCase();
  return commit.trailers.filter((trailer) => trailer.key.toLowerCase() === wanted).map((trailer) => trailer.value);
}

export function isMergeCommit(commit: CommitInfo): boolean {
  return commit.parents.length > 1;
}

function short(commit: CommitInfo): string {
  return `${commit.sha.slice(0, 12)} (${commit.subject.length > 60 ? `${commit.subject.slice(0, 60)}…` : commit.subject})`;
}

/** Every non-merge commit carries the evidence that preflight ran before it. */
export function preflightTrailerIssues(commits: readonly CommitInfo[]): Issue[] {
  return commits
    .filter((commit) => !isMergeCommit(commit) && trailerValues(commit, PREFLIGHT_TRAILER).length === 0)
    .map((commit) => ({
      rule: 'preflight-trailer',
      severity: 'error' as const,
      commit: commit.sha,
      message:
        `commit ${short(commit)} has no \`${PREFLIGHT_TRAILER}:\` trailer: run \`lessons preflight "<task>"\` before committing ` +
        '(`lessons hooks install` adds the trailer from the receipt); for a commit already made, amend it with ' +
        `\`git commit --amend --trailer "${PREFLIGHT_TRAILER}: none"\` or rebase`,
    }));
}

/** The policy's subject patterns: those that block, and those that only warn. */
export interface IncidentPatterns {
  block: RegExp[];
  warn: RegExp[];
}

/** Compiles the policy's subject patterns; an invalid one is a policy error naming it. */
export function compileIncidentPatterns(policy: IncidentPolicy): IncidentPatterns | { error: string } {
  const compiled: IncidentPatterns = { block: [], warn: [] };
  const lists = [['subject_patterns', policy.subject_patterns, compiled.block], ['warn_subject_patterns', policy.warn_subject_patterns, compiled.warn]] as const;
  for (const [field, patterns, into] of lists) {
    for (const [i, pattern] of patterns.entries()) {
      try {
        into.push(new RegExp(pattern));
      } catch (error) {
        return { error: `incident.${field}[${i}] is not a valid regular expression: ${(error as Error).message}` };
      }
    }
  }
  return compiled;
}

export function isIncidentCommit(commit: Pick<CommitInfo, 'subject' | 'trailers'>, patterns: readonly RegExp[], trailerKeys: readonly string[]): boolean {
  return patterns.some((pattern) => pattern.test(commit.subject)) || trailerKeys.some((key) => trailerValues(commit, key).length > 0);
}

export interface IncidentInput {
  commits: readonly CommitInfo[];
  /** Subjects that mark an incident (a missing lesson is an error). */
  patterns: readonly RegExp[];
  /** Subjects that may mark one (a missing lesson is a warning); none when absent. */
  warnPatterns?: readonly RegExp[];
  trailerKeys: readonly string[];
  /** True when the range adds or modifies a case file. */
  caseChanged: boolean;
  /** Ids of the lessons at the head of the range. */
  lessonIds: ReadonlySet<string>;
}

/**
 * A commit that resolves an incident leaves a lesson behind: the range adds or updates a
 * case, or the commit names one with `Lesson: <id>`, or says why not with `Lesson-Skip:`.
 */
export function incidentIssues(input: IncidentInput): Issue[] {
  const issues: Issue[] = [];
  for (const commit of input.commits) {
    if (isMergeCommit(commit)) continue;
    const severity = isIncidentCommit(commit, input.patterns, input.trailerKeys) ? 'error' : isIncidentCommit(commit, input.warnPatterns ?? [], []) ? 'warning' : undefined;
    if (severity === undefined) continue;
    const named = trailerValues(commit, LESSON_TRAILER).flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
    const skip = trailerValues(commit, LESSON_SKIP_TRAILER).filter((value) => value.trim() !== '');
    const unknown = named.filter((id) => !input.lessonIds.has(id));
    for (const id of unknown) {
      issues.push({
        rule: 'incident-lesson-unknown',
        severity: 'error',
        commit: commit.sha,
        message: `commit ${short(commit)} names \`${LESSON_TRAILER}: ${id}\`, but no lesson has that id: fix the trailer or add the case (\`lessons new "<title>"\`)`,
      });
    }
    if (unknown.length > 0) continue;
    if (named.length > 0 || skip.length > 0 || input.caseChanged) continue;
    issues.push({
      rule: 'incident-lesson',
      severity,
      commit: commit.sha,
      message:
        `commit ${short(commit)} ${severity === 'error' ? 'resolves an incident' : 'is a fix'} but leaves no lesson: add or update a case (\`lessons new "<title>"\`), ` +
        `name an existing one with a \`${LESSON_TRAILER}: <id>\` trailer, or say why not with \`${LESSON_SKIP_TRAILER}: <reason>\``,
    });
  }
  return issues;
}
