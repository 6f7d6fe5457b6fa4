import { describe, expect, it } from 'vitest';
import { scanFile, scanIndexText, type ScannedIndex } from '../../src/secrets/index-scan.js';
import { compileSecretRules, type CompiledRule, type SecretMatch } from '../../src/secrets/rules.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { compareStrings } from '../../src/util/compare.js';
import { fakeToken } from '../helpers/guard.js';
import { pick, seededRandom } from '../helpers/random.js';

const rules = compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[];

/** A token written with a JSON escape: nothing in the raw text, a token once decoded. */
const escaped = (token: string): string => `${token.slice(0, 2)}\\u${token.charCodeAt(2).toString(16).padStart(4, '0')}${token.slice(3)}`;

const SUMMARIES = [
  'Nothing secret here.',
  `Key: ${fakeToken('github')}`,
  `Decoded only: ${escaped(fakeToken('aws'))}`,
  `Below its key:\\n\\nsecond paragraph ${escaped(fakeToken('slack'))}`,
  `The same token again: ${fakeToken('github')}`,
];

/** An index in the form `lessons index` writes: a lesson a line, sorted by id. */
function indexText(entries: Map<string, string>): string {
  const ids = [...entries.keys()].sort(compareStrings);
  const lines = ids.map((id) => `    {"id":"${id}","path":"lessons/cases/${id}.md","summary":"${entries.get(id)}"}`);
  return `{\n  "version": 1,\n  "lessons": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

const sorted = (matches: SecretMatch[]): SecretMatch[] => [...matches].sort((a, b) => a.line - b.line || compareStrings(a.rule, b.rule) || compareStrings(a.fingerprint, b.fingerprint));

describe('the secrets scan of lessons/index.json', () => {
  it('gives the same matches rescanning only the lines that changed as scanning every line, and as scanning the file whole', () => {
    const random = seededRandom(7);
    const entries = new Map(Array.from({ length: 40 }, (_, i) => [`case-${String(i).padStart(3, '0')}`, pick(random, SUMMARIES)]));
    let previous: ScannedIndex | undefined;
    const found = new Set<string>();
    for (let step = 0; step < 30; step++) {
      for (let change = 0; change < 3; change++) {
        const roll = random();
        const id = pick(random, [...entries.keys()]);
        if (roll < 0.4) entries.set(id, pick(random, SUMMARIES));
        else if (roll < 0.7) entries.set(`case-${step}-${change}-added`, pick(random, SUMMARIES));
        else if (entries.size > 2) entries.delete(id);
      }
      const text = indexText(entries);
      const full = scanIndexText(text, rules);
      const incremental = scanIndexText(text, rules, previous);
      expect(incremental).toEqual(full);
      expect(sorted(full.matches)).toEqual(sorted(scanFile('lessons/index.json', Buffer.from(text), rules)));
      previous = { text, scan: full.scan! };
      for (const match of full.matches) found.add(match.rule);
    }
    expect(found.size).toBeGreaterThanOrEqual(3);
  });

  it('scans a file that is not one lesson a line whole, and decodes a document whose lessons do not parse line by line', () => {
    const pretty = JSON.stringify({ version: 1, lessons: [{ id: 'case-a', summary: fakeToken('github') }] }, null, 2);
    expect(scanIndexText(pretty, rules).scan).toBeUndefined();
    expect(scanIndexText(pretty, rules).matches).toEqual(scanFile('lessons/index.json', Buffer.from(pretty), rules));
    const noComma = `{\n  "version": 1,\n  "lessons": [\n    {"id":"case-a","summary":"${escaped(fakeToken('github'))}"}\n    {"id":"case-b"}\n  ]\n}\n`;
    expect(sorted(scanIndexText(noComma, rules).matches)).toEqual(sorted(scanFile('lessons/index.json', Buffer.from(noComma), rules)));
  });
});
