import { preflightTrailerIssues } from '../commits.js';
import { STAGE_PROFILES } from '../stages.js';
import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';

/** Locally a fresh preflight receipt; for commits, the `Lessons-Preflight:` trailer on each. */
export const preflightEvidenceGate: GateCheck = (input) => {
  if (STAGE_PROFILES[input.stage].evidence === 'trailers') return preflightTrailerIssues(input.commits ?? []);
  const receipt = input.receipt ?? { state: 'missing' };
  const run = 'run `lessons preflight "<task>"` at the start of the task';
  const max = input.policy.preflight.receipt_max_age_minutes;
  switch (receipt.state) {
    case 'fresh':
      return [];
    case 'missing':
      return [{ rule: 'preflight-receipt', severity: 'error', message: `no preflight receipt: ${run}` }];
    case 'invalid':
      return [{ rule: 'preflight-receipt', severity: 'error', message: `the preflight receipt is unreadable (${receipt.reason}): ${run} again` }];
    case 'stale':
      return [
        {
          rule: 'preflight-receipt',
          severity: 'error',
          message: `the last preflight ran ${receipt.ageMinutes} minutes ago (policy limit ${max}): ${run} again`,
        },
      ];
  }
};

export const preflightEvidence: GateDeclaration = { name: 'preflight-evidence', levels: defaultLevels('warn', 'warn', 'warn'), check: preflightEvidenceGate };
