/**
 * `npm run eval:secrets [-- <gitleaks.toml>]`: recall of the secrets gate on the labelled secret
 * shapes and its false positives on the look-alikes (test/bench/secret-samples.ts), and, given
 * gitleaks' rule file (config/gitleaks.toml of gitleaks/gitleaks, not shipped here), the same
 * figures for gitleaks' default rules on the same lines, as gitleaks applies them: the
 * keywords prefilter, the first capture group as the secret, its entropy threshold and the
 * global and per-rule allowlists (regexes and stopwords). Go's RE2 syntax is translated where
 * JavaScript differs: a leading or inline `(?i)` becomes the `i` flag, `(?-i:` a plain group.
 */
import fs from 'node:fs';
import { compileSecretRules, scanText, shannonEntropy, type CompiledRule } from '../../src/secrets/rules.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { secretSamples, type SecretSample } from './secret-samples.js';

interface GitleaksRule {
  id: string;
  regex?: RegExp;
  entropy?: number;
  keywords: string[];
  path?: string;
  allow: { regexes: RegExp[]; stopwords: string[]; target: string }[];
}

/** A Go regular expression as JavaScript; undefined when it cannot be translated. */
function goRegex(source: string): RegExp | undefined {
  let flags = '';
  let pattern = source.replace(/\(\?P</g, '(?<').replace(/\(\?-i:/g, '(?:').replace(/\\z/g, '$');
  if (pattern.includes('(?i)')) {
    flags = 'i';
    pattern = pattern.split('(?i)').join('');
  }
  pattern = pattern.replace(/\(\?i:/g, '(?:').replace(/\(\?s\)/g, '');
  try {
    return new RegExp(pattern, flags);
  } catch {
    return undefined;
  }
}

/** The string values of a TOML key: '''literal''', "basic", or an array of them. */
function tomlStrings(text: string): string[] {
  const values: string[] = [];
  for (const match of text.matchAll(/'''([\s\S]*?)'''|"((?:[^"\\]|\\.)*)"/g)) values.push(match[1] ?? JSON.parse(`"${match[2]}"`));
  return values;
}

/** Reads the parts of gitleaks.toml the evaluation needs (rules, their allowlists, the global allowlist). */
function parseGitleaks(text: string): { rules: GitleaksRule[]; global: GitleaksRule['allow'] } {
  const rules: GitleaksRule[] = [];
  const global: GitleaksRule['allow'] = [];
  let current: { kind: 'rule'; rule: GitleaksRule } | { kind: 'allow'; into: GitleaksRule['allow'] } | undefined;
  let allow: GitleaksRule['allow'][number] | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '[[rules]]') {
      const rule: GitleaksRule = { id: '', keywords: [], allow: [] };
      rules.push(rule);
      current = { kind: 'rule', rule };
      allow = undefined;
      continue;
    }
    if (line === '[[rules.allowlists]]' || line === '[allowlist]' || line === '[[allowlists]]') {
      allow = { regexes: [], stopwords: [], target: 'secret' };
      const into = line === '[[rules.allowlists]]' && current?.kind === 'rule' ? current.rule.allow : global;
      into.push(allow);
      if (line !== '[[rules.allowlists]]') current = { kind: 'allow', into: global };
      continue;
    }
    const key = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (!key) continue;
    let value = key[2]!;
    // Multi-line arrays and strings run until their brackets or quotes close.
    while ((value.startsWith('[') && !/\]\s*$/.test(value)) || (value.startsWith("'''") && (value.match(/'''/g) ?? []).length < 2)) value += `\n${lines[++i]}`;
    if (allow) {
      if (key[1] === 'regexes') allow.regexes = tomlStrings(value).map(goRegex).filter((regex): regex is RegExp => regex !== undefined);
      if (key[1] === 'stopwords') allow.stopwords = tomlStrings(value).map((word) => word.toLowerCase());
      if (key[1] === 'regexTarget') allow.target = tomlStrings(value)[0] ?? 'secret';
      continue;
    }
    if (current?.kind !== 'rule') continue;
    const rule = current.rule;
    if (key[1] === 'id') rule.id = tomlStrings(value)[0] ?? '';
    if (key[1] === 'regex') rule.regex = goRegex(tomlStrings(value)[0] ?? '');
    if (key[1] === 'entropy') rule.entropy = Number(value);
    if (key[1] === 'keywords') rule.keywords = tomlStrings(value).map((word) => word.toLowerCase());
    if (key[1] === 'path') rule.path = tomlStrings(value)[0];
  }
  return { rules, global };
}

function allowed(lists: GitleaksRule['allow'], secret: string, match: string, line: string): boolean {
  return lists.some(
    (list) =>
      list.regexes.some((regex) => regex.test(list.target === 'line' ? line : list.target === 'match' ? match : secret)) ||
      list.stopwords.some((word) => secret.toLowerCase().includes(word)),
  );
}

/** The gitleaks rules that report `line` (in a file lessons/cases/x.md). */
function gitleaksHits(line: string, rules: GitleaksRule[], global: GitleaksRule['allow']): string[] {
  const hits: string[] = [];
  for (const rule of rules) {
    if (!rule.regex || rule.path !== undefined) continue;
    if (rule.keywords.length > 0 && !rule.keywords.some((word) => line.toLowerCase().includes(word))) continue;
    const regex = new RegExp(rule.regex.source, `${rule.regex.flags.replace('g', '')}g`);
    for (const match of line.matchAll(regex)) {
      const secret = match.slice(1).find((group) => group !== undefined && group !== '') ?? match[0];
      if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) continue;
      if (allowed(global, secret, match[0], line) || allowed(rule.allow, secret, match[0], line)) continue;
      hits.push(rule.id);
      break;
    }
  }
  return hits;
}

function ourHits(line: string, rules: CompiledRule[]): string[] {
  return scanText('lessons/cases/x.md', line, rules, new Set()).map((match) => match.rule);
}

export interface SecretsFigures {
  secrets: number;
  found: number;
  lookalikes: number;
  falsePositives: number;
  missed: string[];
  flagged: string[];
}

function figures(samples: { secrets: SecretSample[]; lookalikes: SecretSample[] }, hits: (line: string) => string[]): SecretsFigures {
  const missed = samples.secrets.filter((sample) => hits(sample.line).length === 0).map((sample) => sample.name);
  const flagged = samples.lookalikes.filter((sample) => hits(sample.line).length > 0).map((sample) => sample.name);
  return { secrets: samples.secrets.length, found: samples.secrets.length - missed.length, lookalikes: samples.lookalikes.length, falsePositives: flagged.length, missed, flagged };
}

export function evaluateSecrets(gitleaksToml?: string): { ours: SecretsFigures; gitleaks?: SecretsFigures } {
  const samples = secretSamples();
  const rules = compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[];
  const ours = figures(samples, (line) => ourHits(line, rules));
  if (gitleaksToml === undefined) return { ours };
  const { rules: gitleaksRules, global } = parseGitleaks(fs.readFileSync(gitleaksToml, 'utf8'));
  return { ours, gitleaks: figures(samples, (line) => gitleaksHits(line, gitleaksRules, global)) };
}

function print(name: string, result: SecretsFigures): void {
  const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`;
  console.log(`${name}: recall ${result.found}/${result.secrets} (${percent(result.found, result.secrets)}), false positives ${result.falsePositives}/${result.lookalikes} (${percent(result.falsePositives, result.lookalikes)})`);
  if (result.missed.length > 0) console.log(`  missed: ${result.missed.join('; ')}`);
  if (result.flagged.length > 0) console.log(`  flagged look-alikes: ${result.flagged.join('; ')}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const toml = process.argv[2];
  const { ours, gitleaks } = evaluateSecrets(toml);
  print('lessons secrets gate (default policy)', ours);
  if (gitleaks) print(`gitleaks default rules (${toml})`, gitleaks);
  else console.log('pass the path of gitleaks\' config/gitleaks.toml to compare with its default rules');
}
