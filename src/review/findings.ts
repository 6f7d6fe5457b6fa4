import path from 'node:path';
import { SEVERITIES, type Severity } from '../lesson/model.js';
import { printable } from '../util/printable.js';
import { compareStrings } from '../util/compare.js';

/** One finding of the semantic lane: from the reviewer's answer, or about the reviewer itself. */
export interface ReviewFinding {
  severity: Severity;
  /** The lesson id the finding rests on, or a `reviewer-*` rule for a problem with the reviewer. */
  rule: string;
  message: string;
  file: string | null;
  line: number | null;
  evidence: string;
  recommendation: string;
  /** `reviewer`: the reviewer said so; `lane`: the lane reports on the reviewer run itself. */
  origin: 'reviewer' | 'lane';
}

/** The answer `schemas/semantic-review.schema.json` describes, once validated. */
export interface SemanticReview {
  summary: string;
  findings: Omit<ReviewFinding, 'origin'>[];
}

/** Something went wrong with the reviewer run: what happened and how to fix it. */
export interface ReviewerProblem {
  rule: string;
  message: string;
  fix: string;
  evidence: string;
}

/** Reviewer problems are medium: advisory unless a policy's `block_on` names medium. */
export const LANE_SEVERITY: Severity = 'medium';

export function problemFinding(problem: ReviewerProblem): ReviewFinding {
  return {
    severity: LANE_SEVERITY,
    rule: problem.rule,
    message: printable(problem.message),
    file: null,
    line: null,
    evidence: printable(problem.evidence),
    recommendation: printable(problem.fix),
    origin: 'lane',
  };
}

/** The reviewer's findings with paths made repo-relative and POSIX, in a stable order. */
export function findingsFromReview(review: SemanticReview, root: string): ReviewFinding[] {
  return review.findings
    .map(
      (finding): ReviewFinding => ({
        ...finding,
        // Nothing a reviewer wrote reaches a terminal raw: no escape sequences, no controls.
        rule: printable(finding.rule),
        message: printable(finding.message),
        evidence: printable(finding.evidence),
        recommendation: printable(finding.recommendation),
        file: normaliseFile(finding.file === null ? null : printable(finding.file), root),
        origin: 'reviewer',
      }),
    )
    .sort(compareReviewFindings);
}

function normaliseFile(file: string | null, root: string): string | null {
  if (file === null || file.trim() === '') return null;
  let rel = file.trim().replace(/\\/g, '/');
  if (path.isAbsolute(rel)) {
    const relative = path.relative(root, rel);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return rel;
    rel = relative.split(path.sep).join('/');
  }
  return rel.replace(/^(?:\.\/)+/, '');
}

const RANK = new Map<Severity, number>(SEVERITIES.map((severity, i) => [severity, i]));

/** Most severe first, then by place and rule. */
export function compareReviewFindings(a: ReviewFinding, b: ReviewFinding): number {
  return (
    RANK.get(b.severity)! - RANK.get(a.severity)! ||
    compareStrings(a.file ?? '', b.file ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareStrings(a.rule, b.rule) ||
    compareStrings(a.message, b.message)
  );
}

export function isBlocking(finding: ReviewFinding, blockOn: readonly Severity[]): boolean {
  return blockOn.includes(finding.severity);
}

/** Advisory by default: only severities the policy lists in `block_on` block. */
export function isBlocked(findings: readonly ReviewFinding[], blockOn: readonly Severity[]): boolean {
  return findings.some((finding) => isBlocking(finding, blockOn));
}
