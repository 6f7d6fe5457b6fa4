import path from 'node:path';
import { readTextIfExists } from '../io/fs.js';
import { packageVersion } from '../io/package-root.js';
import type { RawPolicy } from '../io/policy-file.js';
import { STATE_DIR } from '../io/repo.js';

/**
 * Where preflight remembers the last policy it found valid, keyed by its content and the tool's
 * version, so a run pays for the schema check (the compiled validator loads: tens of
 * milliseconds) only when the policy changed. Light on purpose: preflight reads it before every
 * task and loads validate-policy.ts only when it says no.
 */
export const CHECKED_POLICY = 'cache/policy-checked.json';

export function checkedPolicyFile(root: string): string {
  return path.join(root, STATE_DIR, CHECKED_POLICY);
}

export function checkedPolicyKey(raw: RawPolicy): string {
  return `${packageVersion()}\n${JSON.stringify(raw.data)}\n`;
}

/** Whether `raw` is absent, or the policy last found valid here. */
export function policyKnownValid(root: string, raw: RawPolicy): boolean {
  return !raw.exists || readTextIfExists(checkedPolicyFile(root)) === checkedPolicyKey(raw);
}
