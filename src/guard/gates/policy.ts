import { policyChangeIssues } from '../trusted-policy.js';
import type { GateCheck, GateDeclaration } from './gate.js';

/** A pushed or proposed change to the policy file, unless a maintainer accepted it (trusted-policy.ts). */
export const policyGate: GateCheck = (input) => policyChangeIssues(input.policyChange);

export const policy: GateDeclaration = { name: 'policy', check: policyGate };
