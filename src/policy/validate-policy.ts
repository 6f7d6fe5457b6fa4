import { LessonsError } from '../errors.js';
import { validateAgainst } from '../schema/validate.js';
import { readPolicyFile } from '../io/policy-file.js';
import { policyPatternErrors, type PatternError } from './patterns.js';
import { resolvePolicy, type Policy } from './policy.js';

/** Reads and validates the policy; an invalid one is a configuration error (exit 2) naming the field. */
export function loadPolicy(root: string): Policy {
  const raw = readPolicyFile(root);
  if (!raw.exists) return resolvePolicy({});
  const errors: PatternError[] = validateAgainst('policy', raw.data);
  if (errors.length === 0) errors.push(...policyPatternErrors(raw.data));
  if (errors.length > 0) {
    const lines = errors.map((error) => `  ${error.field}: ${error.message}`).join('\n');
    throw new LessonsError('INVALID_POLICY', `${raw.path} is invalid:\n${lines}\nfix the fields named above (schema: schemas/policy.schema.json)`);
  }
  return resolvePolicy(raw.data);
}
