import type { SecretRule, SecretsPolicy } from '../policy/policy.js';
import { sha256 } from '../util/digest.js';
import { encodedRuns, originalSpan, plainView } from './views.js';

/** One credential-looking match. The secret itself never leaves this module unmasked. */
export interface SecretMatch {
  rule: string;
  file: string;
  line: number;
  /** `sha256:` of rule name, NUL, matched secret: what the policy's allowlist lists. */
  fingerprint: string;
  /** The first characters and the length, enough to find it without printing it. */
  masked: string;
  /** A commit of a pushed range that added it, when the head no longer holds it (history.ts). */
  commit?: string;
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

function mask(secret: string, form?: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} characters${form ? `, ${form}` : ''})`;
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

/** The line of each offset of a text, from one pass over its line breaks (a binary search a lookup). */
function lineLocator(text: string): (offset: number) => number {
  let starts: number[] | undefined;
  return (offset) => {
    if (starts === undefined) {
      starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

interface SecretSpan {
  rule: string;
  secret: string;
  /** Where it stands in the scanned text: [offset, end). */
  offset: number;
  end: number;
  fingerprint: string;
  /** How it was hidden, when it was: `base64-encoded`, `hex-encoded`, `obfuscated`. */
  form?: string;
}

/** The characters spans took: a span over any of them is the same secret found again. */
class Taken {
  private readonly marks: Uint8Array;
  constructor(length: number) {
    this.marks = new Uint8Array(length);
  }
  overlaps(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (this.marks[i] === 1) return true;
    return false;
  }
  take(from: number, to: number): void {
    this.marks.fill(1, from, to);
  }
}

/** How deep an encoded run is decoded again: base64 of base64, or of URL-encoded text. */
const DECODE_DEPTH = 2;

/** The rules' matches of `text` as it stands, minus allowlisted fingerprints, with each one's rule's place in the list. */
function ruleSpans(text: string, rules: readonly CompiledRule[], allowlist: ReadonlySet<string>): (SecretSpan & { order: number })[] {
  const spans: (SecretSpan & { order: number })[] = [];
  rules.forEach(({ rule, regex, exclude }, order) => {
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
      spans.push({ rule: rule.name, secret, offset, end: offset + secret.length, fingerprint, order });
    }
  });
  return spans;
}

/**
 * Where the rules match `text`: as it stands, in its plain view (views.ts: escapes, invisible
 * and look-alike characters, entities, URL encoding and split lines undone), and in what its
 * base64 and hex runs decode to (to DECODE_DEPTH), each span at the original characters it came
 * from. Where spans overlap, the earlier rule in the list (the more specific) keeps them, and
 * for one rule the longer span (the whole token), then the text as it stands before its views:
 * each secret is reported once. Each
 * rule's matches of one text do not overlap, so the marks cost at most the text's length a rule.
 */
function secretSpans(text: string, rules: readonly CompiledRule[], allowlist: ReadonlySet<string>, depth = DECODE_DEPTH): (SecretSpan & { order: number })[] {
  const raw = ruleSpans(text, rules, allowlist);
  const candidates: (SecretSpan & { order: number; rank: number })[] = raw.map((span) => ({ ...span, rank: 0 }));
  const view = plainView(text);
  if (view) {
    const endsItsLine = lineEndingSpans(text, raw);
    for (const span of ruleSpans(view.text, rules, allowlist)) {
      const [offset, end] = originalSpan(view, span.offset, span.end);
      // A token that ends with its line is whole: the view joining the next line's first word to it is no longer token.
      if (endsItsLine.get(span.order)?.overlaps(offset, end)) continue;
      candidates.push({ ...span, offset, end, form: 'obfuscated', rank: 1 });
    }
  }
  if (depth > 0) {
    for (const run of encodedRuns(view?.text ?? text)) {
      const [offset, end] = originalSpan(view, run.start, run.end);
      for (const span of secretSpans(run.decoded, rules, allowlist, depth - 1)) candidates.push({ ...span, offset, end, form: span.form ?? run.form, rank: 2 });
    }
  }
  // The whole token before a part of it (the view's match past a character that cut the plain one short).
  candidates.sort((a, b) => a.order - b.order || b.end - b.offset - (a.end - a.offset) || a.rank - b.rank || a.offset - b.offset);
  const taken = new Taken(text.length);
  const spans: (SecretSpan & { order: number })[] = [];
  for (const { rank: _rank, ...span } of candidates) {
    if (taken.overlaps(span.offset, span.end)) continue;
    taken.take(span.offset, span.end);
    spans.push(span);
  }
  return spans.sort((a, b) => a.order - b.order || a.offset - b.offset);
}

/** The characters of the spans that end where their line does (a line break, or a shell's continuation backslash before one), by rule. */
function lineEndingSpans(text: string, spans: readonly (SecretSpan & { order: number })[]): Map<number, Taken> {
  const byRule = new Map<number, Taken>();
  for (const { offset, end, order } of spans) {
    if (!/^\\?\r?\n/.test(text.slice(end, end + 3))) continue;
    let taken = byRule.get(order);
    if (!taken) byRule.set(order, (taken = new Taken(text.length)));
    taken.take(offset, end);
  }
  return byRule;
}

/** Every match of every rule in one file's text, minus allowlisted fingerprints; pure. */
export function scanText(file: string, text: string, rules: readonly CompiledRule[], allowlist: ReadonlySet<string>): SecretMatch[] {
  const lineOf = lineLocator(text);
  return secretSpans(text, rules, allowlist).map(({ rule, secret, offset, fingerprint, form }) => ({ rule, file, line: lineOf(offset), fingerprint, masked: mask(secret, form) }));
}

/** `text` with every secret the rules find replaced by `[redacted <rule>]`, and the rules that matched (once each, in order). */
export function redactText(text: string, rules: readonly CompiledRule[]): { text: string; redacted: string[] } {
  const spans = secretSpans(text, rules, new Set()).sort((a, b) => a.offset - b.offset);
  if (spans.length === 0) return { text, redacted: [] };
  const parts: string[] = [];
  let at = 0;
  for (const { rule, offset, end } of spans) {
    parts.push(text.slice(at, offset), `[redacted ${rule}]`);
    at = end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), redacted: [...new Set(spans.map((span) => span.rule))] };
}

/** `text` with every secret the rules find replaced by `[redacted <rule>]`: for what is kept of a command's output. */
export function redactSecrets(text: string, rules: readonly CompiledRule[]): string {
  return redactText(text, rules).text;
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
