import type { SecretRule, SecretsPolicy } from '../policy/policy.js';
import { sha256 } from '../util/digest.js';

/** One credential-looking match. The secret itself never leaves this module unmasked. */
export interface SecretMatch {
  rule: string;
  file: string;
  line: number;
  /** `sha256:` of rule name, NUL, matched secret: what the policy's allowlist lists. */
  fingerprint: string;
  /** The first characters and the length, enough to find it without printing it. */
  masked: string;
}

export function secretFingerprint(rule: string, secret: string): string {
  return `sha256:${sha256(`${rule}\0${secret}`)}`;
}

/** Shannon entropy in bits per character: random tokens score high, words and repeats low. */
export function shannonEntropy(text: string): number {
  if (text === '') return 0;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  const length = [...text].length;
  for (const count of counts.values()) {
    const p = count / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

function mask(secret: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} characters)`;
}

export interface CompiledRule {
  rule: SecretRule;
  regex: RegExp;
}

/** Compiles the policy's rules; a rule that is not a valid regular expression is a policy error naming it. */
export function compileSecretRules(policy: SecretsPolicy): CompiledRule[] | { error: string } {
  const compiled: CompiledRule[] = [];
  for (const [i, rule] of policy.rules.entries()) {
    try {
      compiled.push({ rule, regex: new RegExp(rule.pattern, `g${(rule.flags ?? '').replace(/g/g, '')}`) });
    } catch (error) {
      return { error: `secrets.rules[${i}].pattern (${rule.name}) is not a valid regular expression: ${(error as Error).message}` };
    }
  }
  return compiled;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Every match of every rule in one file's text, minus allowlisted fingerprints; pure. */
export function scanText(file: string, text: string, rules: readonly CompiledRule[], allowlist: ReadonlySet<string>): SecretMatch[] {
  const matches: SecretMatch[] = [];
  // A span an earlier (more specific) rule matched is not reported again by a generic one.
  const taken: [number, number][] = [];
  for (const { rule, regex } of rules) {
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0] === '') {
        regex.lastIndex++;
        continue;
      }
      const secret = match[rule.group ?? 0];
      if (secret === undefined || secret === '') continue;
      if (rule.min_entropy !== undefined && shannonEntropy(secret) < rule.min_entropy) continue;
      const fingerprint = secretFingerprint(rule.name, secret);
      if (allowlist.has(fingerprint)) continue;
      const offset = match.index + (rule.group ? match[0].indexOf(secret) : 0);
      const end = offset + secret.length;
      if (taken.some(([from, to]) => offset < to && from < end)) continue;
      taken.push([offset, end]);
      matches.push({ rule: rule.name, file, line: lineAt(text, offset), fingerprint, masked: mask(secret) });
    }
  }
  return matches;
}
