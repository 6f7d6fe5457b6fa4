import { describePlacement } from '../../eval/format.js';
import type { Issue } from '../finding.js';
import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';

/**
 * The team's retrieval evals: a threshold missed is an error; each miss and false positive
 * is a warning that says where the lesson went, so a rename that breaks retrieval is visible.
 */
export const retrievalGate: GateCheck = (input) => {
  const outcome = input.retrieval;
  if (outcome === undefined) return [];
  if ('error' in outcome) return [{ rule: 'retrieval-evals', severity: 'error', file: outcome.file, message: outcome.error }];
  const { file, result } = outcome;
  const issues: Issue[] = result.failures.map((failure) => ({ rule: 'retrieval-threshold', severity: 'error', file, message: `${failure}: run \`lessons eval\` for the reasons` }));
  for (const c of result.cases) {
    for (const miss of c.misses) {
      issues.push({ rule: 'retrieval-miss', severity: 'warning', file, message: `"${c.name}": preflight does not select ${miss.id} (${describePlacement(miss, c.mode)})` });
    }
    for (const lesson of c.false_positives) {
      issues.push({ rule: 'retrieval-false-positive', severity: 'warning', file, message: `"${c.name}": preflight selects ${lesson.id}, which it must not` });
    }
  }
  return issues;
};

export const retrieval: GateDeclaration = { name: 'retrieval', levels: defaultLevels('off', 'off', 'block'), check: retrievalGate };
