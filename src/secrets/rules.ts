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
  exclude?: RegExp;
}

/** Compiles the policy's rules; a rule that is not a valid regular expression is a policy error naming it. */
export function compileSecretRules(policy: SecretsPolicy): CompiledRule[] | { error: string } {
  const compiled: CompiledRule[] = [];
  for (const [i, rule] of policy.rules.entries()) {
    const flags = (rule.flags ?? '').replace(/g/g, '');
    try {
      compiled.push({ rule, regex: new RegExp(rule.pattern, `g${flags}`), ...(rule.exclude === undefined ? {} : { exclude: new RegExp(rule.exclude, flags) }) });
    } catch (error) {
      const field = rule.exclude !== undefined && !(error as Error).message.includes(rule.pattern) ? 'exclude' : 'pattern';
      return { error: `secrets.rules[${i}].${field} (${rule.name}) is not a valid regular expression: ${(error as Error).message}` };
    }
  }
  return compiled;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

interface SecretSpan {
  rule: string;
  secret: string;
  offset: number;
  fingerprint: string;
}

/** Where each rule matches `text`, minus allowlisted fingerprints; a span an earlier (more specific) rule took is not matched again by a generic one. */
function secretSpans(text: string, rules: readonly CompiledRule[], allowlist: ReadonlySet<string>): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const taken: [number, number][] = [];
  for (const { rule, regex, exclude } of rules) {
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0] === '') {
        regex.lastIndex++;
        continue;
      }
      const secret = match[rule.group ?? 0];
      if (secret === undefined || secret === '') continue;
      if (rule.min_entropy !== undefined && shannonEntropy(secret) < rule.min_entropy) continue;
      if (exclude?.test(secret)) continue;
      const fingerprint = secretFingerprint(rule.name, secret);
      if (allowlist.has(fingerprint)) continue;
      const offset = match.index + (rule.group ? match[0].indexOf(secret) : 0);
      const end = offset + secret.length;
      if (taken.some(([from, to]) => offset < to && from < end)) continue;
      taken.push([offset, end]);
      spans.push({ rule: rule.name, secret, offset, fingerprint });
    }
  }
  return spans;
}

/** Every match of every rule in one file's text, minus allowlisted fingerprints; pure. */
export function scanText(file: string, text: string, rules: readonly CompiledRule[], allowlist: ReadonlySet<string>): SecretMatch[] {
  return secretSpans(text, rules, allowlist).map(({ rule, secret, offset, fingerprint }) => ({ rule, file, line: lineAt(text, offset), fingerprint, masked: mask(secret) }));
}

/** `text` with every secret the rules find replaced by `[redacted <rule>]`: for what is kept of a command's output. */
export function redactSecrets(text: string, rules: readonly CompiledRule[]): string {
  let result = text;
  for (const { rule, secret, offset } of secretSpans(text, rules, new Set()).sort((a, b) => b.offset - a.offset)) {
    result = `${result.slice(0, offset)}[redacted ${rule}]${result.slice(offset + secret.length)}`;
  }
  return result;
}

/** One decoded value and the file line it stands on (its top-level key's). */
export interface DecodedValue {
  line: number;
  value: unknown;
}

function stringsOf(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      stringsOf(item, into);
    }
  }
}

/**
 * Matches in the strings a YAML or JSON document decodes to: `"gh\u0070_…"` or `"\x41KIA…"`
 * read as nothing in the raw text and as a token everywhere the value is copied. Each string is
 * scanned alone (as the line it would be), at the line of its top-level key; a secret the raw
 * scan already reported (`known`) is not reported twice.
 */
export function scanDecoded(file: string, values: readonly DecodedValue[], rules: readonly CompiledRule[], known: readonly SecretMatch[]): SecretMatch[] {
  const seen = new Set(known.map((match) => match.fingerprint));
  const matches: SecretMatch[] = [];
  for (const { line, value } of values) {
    const strings: string[] = [];
    stringsOf(value, strings);
    for (const text of strings) {
      for (const match of scanText(file, text, rules, new Set())) {
        if (seen.has(match.fingerprint)) continue;
        seen.add(match.fingerprint);
        matches.push({ ...match, line: line + match.line - 1 });
      }
    }
  }
  return matches;
}
