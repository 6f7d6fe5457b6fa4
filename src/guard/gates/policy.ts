import { policyChangeIssues } from '../trusted-policy.js';
import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';

/** A pushed or proposed change to the policy file, unless a maintainer accepted it (trusted-policy.ts). */
export const policyGate: GateCheck = (input) => policyChangeIssues(input.policyChange);

export const policy: GateDeclaration = {
  name: 'policy',
  levels: defaultLevels('off', 'warn', 'block'),
  description:
    "A change to this file in a pushed or proposed range. In pre-push and ci the guard uses the base revision's policy and reports the change here.",
  check: policyGate,
};
