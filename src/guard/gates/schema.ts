import { lintTree } from '../../lint/lint.js';
import type { SchemaError } from '../../schema/validate.js';
import { toIsoDate } from '../../util/dates.js';
import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';
import { fromLint } from './lint-issues.js';

const noSchema = (): SchemaError[] => {
  throw new Error('the schema gate runs on summarised lessons only');
};

/** Every lesson valid, ids unique, references resolved: lint's errors (its warnings stay with `lessons lint`). */
export const schemaGate: GateCheck = (input) => {
  // The head's lessons carry their file findings (gatherGateInput asked for them): no schema is run here.
  const findings = input.checked?.lint ?? lintTree({ tree: input.head.tree, policy: input.policy, today: toIsoDate(input.now), schemaErrors: noSchema }).findings;
  return fromLint(findings.filter((finding) => finding.severity === 'error'));
};

export const schema: GateDeclaration = { name: 'schema', levels: defaultLevels('block', 'block', 'block'), check: schemaGate };
