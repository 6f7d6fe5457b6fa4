import { errorMessage } from '../errors.js';
import { collectChanges } from '../io/git/diff.js';
import { findRepoRoot } from '../io/repo.js';
import type { Severity } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { findingsFromReview, isBlocked, problemFinding, type ReviewFinding, type SemanticReview } from './findings.js';
import { selectForReview } from './lessons.js';
import { buildReviewPrompt } from './prompt.js';
import { askReviewer } from './run.js';

export interface ReviewOptions {
  cwd: string;
  /** Review what the branch added since this ref, as well as what is not committed. */
  base?: string | undefined;
  /** The policy when the caller has it already (the guard); read and validated otherwise. */
  policy?: Policy;
  /** The clock, for lesson recency in the selection; now when left out. */
  now?: Date;
}

export interface ReviewResult {
  base: string | null;
  /** false when there was nothing to review, so no reviewer ran. */
  ran: boolean;
  command: string[];
  paths: string[];
  lessons: string[];
  prompt: { bytes: number; cut: string[] };
  summary: string | null;
  findings: ReviewFinding[];
  /** The severities that block, from the policy. */
  block_on: Severity[];
  blocked: boolean;
}

/** `lessons review`: the diff and its lessons to the reviewer; its findings back, validated. */
export async function review(options: ReviewOptions): Promise<ReviewResult> {
  const root = findRepoRoot(options.cwd);
  const policy = options.policy ?? loadPolicy(root);
  const changes = await collectChanges(root, options.base);
  const base = { base: changes.base, command: policy.review.command, paths: changes.paths, block_on: policy.review.block_on };
  if (changes.sections.length === 0) {
    return { ...base, ran: false, lessons: [], prompt: { bytes: 0, cut: [] }, summary: null, findings: [], blocked: false };
  }
  const diffText = changes.sections.map((section) => section.text).join('\n');
  const lessons = await selectForReview(root, { commitMessages: changes.commitMessages, diff: diffText, paths: changes.paths }, policy, options.now ?? new Date());
  const prompt = buildReviewPrompt({
    instructions: policy.review.instructions,
    lessons,
    commitMessages: changes.commitMessages,
    diff: changes.sections,
    maxBytes: policy.review.max_prompt_bytes,
  });
  const answer = await askReviewer({ root, review: policy.review, schema: 'semantic-review', prompt: prompt.text });
  const reviewed = answer.ok ? (answer.data as SemanticReview) : undefined;
  const findings = reviewed ? findingsFromReview(reviewed, root) : answer.ok ? [] : [problemFinding(answer.problem)];
  return {
    ...base,
    ran: true,
    lessons: lessons.map((lesson) => lesson.id),
    prompt: { bytes: prompt.bytes, cut: prompt.cut },
    summary: reviewed?.summary ?? null,
    findings,
    blocked: isBlocked(findings, policy.review.block_on),
  };
}

/**
 * The semantic lane of `lessons guard --stage final`: the same review, but it never throws,
 * so the deterministic lane goes on whatever happens here (a git or policy problem becomes
 * one finding).
 */
export async function runSemanticLane(options: ReviewOptions): Promise<{ findings: ReviewFinding[]; blocked: boolean }> {
  try {
    const result = await review(options);
    return { findings: result.findings, blocked: result.blocked };
  } catch (error) {
    const finding = problemFinding({
      rule: 'review-lane-error',
      message: `the semantic review could not run: ${errorMessage(error)}`,
      fix: 'run `lessons review` to see the problem on its own',
      evidence: '',
    });
    return { findings: [finding], blocked: isBlocked([finding], options.policy?.review.block_on ?? []) };
  }
}
