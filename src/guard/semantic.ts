import type { Policy } from '../policy/policy.js';
import type { ReviewFinding } from '../review/findings.js';
import type { GuardFinding } from './finding.js';

/** The advisory lane's name among the guard's gates in reports. */
export const SEMANTIC_GATE = 'semantic-review';

/**
 * A reviewer finding as a guard finding. The semantic lane only warns, unless the policy's
 * `review.block_on` names the finding's severity: an explicit choice to let it block.
 */
export function semanticFinding(finding: ReviewFinding, policy: Policy): GuardFinding {
  const blocks = policy.review.block_on.includes(finding.severity);
  const fix = finding.recommendation ? ` Fix: ${finding.recommendation}` : '';
  return {
    gate: SEMANTIC_GATE,
    level: blocks ? 'block' : 'warn',
    rule: finding.rule,
    severity: blocks ? 'error' : 'warning',
    ...(finding.file ? { file: finding.file } : {}),
    ...(finding.line ? { line: finding.line } : {}),
    message: `(${finding.severity}) ${finding.message}${fix}`,
  };
}
