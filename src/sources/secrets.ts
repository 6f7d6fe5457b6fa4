import path from 'node:path';
import { readText } from '../io/fs.js';
import { scanText, type CompiledRule, type SecretMatch } from '../secrets/rules.js';
import type { Policy } from '../policy/policy.js';
import { loadSourceLessons } from './load.js';

/**
 * Secrets in the fetched sources' lesson files, found with the same rules and allowlist as in
 * local ones: a source's lessons are shown to people and agents here, so a credential in one
 * leaks here too. Paths are repo-relative (.lessons/sources/<name>/...).
 */
export function sourceSecrets(root: string, policy: Policy, rules: readonly CompiledRule[]): SecretMatch[] {
  if (policy.sources.length === 0) return [];
  const allowlist = new Set(policy.secrets.allowlist);
  const { files } = loadSourceLessons(root, policy, { schemaErrors: () => [] });
  return files.flatMap((file) => scanText(file, readText(path.join(root, file)), rules, allowlist));
}
