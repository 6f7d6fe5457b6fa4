import { LessonsError } from '../errors.js';
import { validateAgainst, type SchemaError } from '../schema/validate.js';
import { writeInRepo } from '../io/fs.js';
import { readPolicyFile, type RawPolicy } from '../io/policy-file.js';
import { ensureStateDir } from '../io/state.js';
import { checkedPolicyFile, checkedPolicyKey, policyKnownValid } from './policy-checked.js';
import { policyPatternErrors, type PatternError } from './patterns.js';
import { resolvePolicy, type Policy } from './policy.js';

function schemaErrors(raw: RawPolicy): SchemaError[] {
  return raw.exists ? validateAgainst('policy', raw.data) : [];
}

/** Reads and validates the policy; an invalid one is a configuration error (exit 2) naming the field. */
export function loadPolicy(root: string): Policy {
  const raw = readPolicyFile(root);
  const errors: (SchemaError | PatternError)[] = schemaErrors(raw);
  if (errors.length === 0 && raw.exists) errors.push(...policyPatternErrors(raw.data));
  if (errors.length > 0) {
    const lines = errors.map((error) => `  ${error.field}: ${error.message}`).join('\n');
    throw new LessonsError('INVALID_POLICY', `${raw.path} is invalid:\n${lines}\nfix the fields named above (schema: schemas/policy.schema.json)`);
  }
  return resolvePolicy(raw.data);
}

/**
 * For the commands that go on with the defaults where the policy does not hold (preflight): one
 * line saying the policy is invalid, which fields, and the fix; undefined when it is valid or
 * absent. A policy that is not JSON at all is still an error (readPolicyFile throws). A valid
 * policy is remembered (policy-checked.ts) and not checked again.
 */
export function invalidPolicyWarning(root: string, raw: RawPolicy = readPolicyFile(root)): string | undefined {
  if (policyKnownValid(root, raw)) return undefined;
  const errors = schemaErrors(raw);
  if (errors.length === 0) {
    try {
      ensureStateDir(root);
      writeInRepo(root, checkedPolicyFile(root), checkedPolicyKey(raw));
    } catch {
      // A read-only checkout only checks again next time.
    }
    return undefined;
  }
  const fields = errors.map((error) => `${error.field || 'the file'}: ${error.message}`).join('; ');
  return `${raw.path} is invalid (${fields}): preflight uses the defaults for what it cannot read; fix the fields named (schemas/policy.schema.json), \`lessons doctor\` checks it`;
}
