import type { Gate, GateLevel, Policy, Stage } from '../../policy/policy.js';
import { applyLevel, compareGuardFindings, type GuardFinding } from '../finding.js';
import type { GateInput } from './gate.js';
import { GATE_REGISTRY } from './registry.js';

/** The level of each gate in a stage, as the policy sets it. */
export function stageLevels(policy: Policy, stage: Stage): Record<Gate, GateLevel> {
  return Object.fromEntries(GATE_REGISTRY.map(({ name }) => [name, policy.gates[name][stage]])) as Record<Gate, GateLevel>;
}

/** Runs every gate that is on and applies the policy's levels; pure. */
export function runGates(input: GateInput): GuardFinding[] {
  const levels = stageLevels(input.policy, input.stage);
  const findings: GuardFinding[] = [];
  for (const { name, check } of GATE_REGISTRY) {
    if (levels[name] === 'off') continue;
    for (const issue of check(input)) {
      const finding = applyLevel(name, input.stage, levels[name], issue);
      if (finding) findings.push(finding);
    }
  }
  return findings.sort(compareGuardFindings);
}
