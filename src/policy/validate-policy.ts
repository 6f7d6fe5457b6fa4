import { LessonsError } from '../errors.js';
import { pointerParts, validateAgainst, type SchemaError } from '../schema/validate.js';
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

/** What preflight selects with when the policy does not hold: the fields that are wrong left out, and one line saying so. */
export interface UsablePolicy {
  /** The policy file with each invalid field removed, so the defaults stand for it. */
  raw: RawPolicy;
  /** The policy is invalid, which fields, and the fix. */
  warning: string;
}

/**
 * For the commands that go on with the defaults where the policy does not hold (preflight): the
 * policy without the fields the schema rejects, and one line naming them and the fix; undefined
 * when it is valid or absent. A policy that is not JSON at all is still an error (readPolicyFile
 * throws). A valid policy is remembered (policy-checked.ts) and not checked again.
 */
export function usablePolicy(root: string, raw: RawPolicy = readPolicyFile(root)): UsablePolicy | undefined {
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
  return {
    raw: { ...raw, data: withoutFields(raw.data, errors.map((error) => error.pointer)) },
    warning: `${raw.path} is invalid (${fields}): preflight uses the defaults for what it cannot read; fix the fields named (schemas/policy.schema.json), \`lessons doctor\` checks it`,
  };
}

/**
 * `data` without the fields at `pointers` (JSON pointers): a copy, the input untouched. A pointer
 * into a list removes the whole list (an entry left out would change what the rest means); the
 * document's own pointer leaves nothing.
 */
export function withoutFields(data: unknown, pointers: readonly string[]): unknown {
  const copy: unknown = structuredClone(data);
  for (const pointer of pointers) {
    const document: Record<string, unknown> = { '': copy };
    let holder = document;
    let key = '';
    for (const part of pointerParts(pointer)) {
      // Own fields only: a field named __proto__ must not lead out of the data.
      const next = Object.hasOwn(holder, key) ? holder[key] : undefined;
      if (Array.isArray(next) || typeof next !== 'object' || next === null) break;
      holder = next as Record<string, unknown>;
      key = part;
    }
    if (holder === document) return {};
    delete holder[key];
  }
  return copy;
}
