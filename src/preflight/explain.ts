import type { RankedLesson, WordMatch } from './rank.js';
import { type DocRecord, type Field, FIELD_BIT, stem, words } from '../search/engine.js';

/** Why a lesson was chosen, in words a reader can check against the lesson. */

/** Where a match says most about the lesson, in the order a reader looks. */
const FIELD_ORDER: [Field, string][] = [
  ['title', 'title'],
  ['tags', 'tags'],
  ['tagWords', 'tags'],
  ['keywords', 'trigger keywords'],
  ['summary', 'summary'],
  ['checklist', 'checklist'],
  ['body', 'text'],
];

function strongestField(bits: number): string {
  return FIELD_ORDER.find(([field]) => (bits & FIELD_BIT[field]) !== 0)?.[1] ?? 'text';
}

/** The lesson's own word for a stemmed term, so reasons read "released", not "releas". */
function surfaceWord(record: DocRecord, term: string): string {
  const texts = [record.title, ...record.tags, ...record.keywords, record.summary, ...record.checklist];
  for (const text of texts) for (const word of words(text)) if (stem(word) === term) return word;
  return term;
}

function describeMatch(match: WordMatch, record: DocRecord): string {
  if (match.kind === 'exact') return `"${match.word}"`;
  const how = { related: 'related', joined: 'joined', morph: 'same word', prefix: 'longer', fuzzy: 'similar' }[match.kind];
  return `"${match.word}" ~ "${surfaceWord(record, match.term)}" (${how})`;
}

/** `matched "bump", "version" in title; "release" in tags`: each task word under the strongest field it matched. */
function describeMatches(matches: readonly WordMatch[], record: DocRecord): string {
  const byField = new Map<string, string[]>();
  for (const match of [...matches].sort((a, b) => Number(a.kind !== 'exact') - Number(b.kind !== 'exact'))) {
    const field = strongestField(match.fields);
    byField.set(field, [...(byField.get(field) ?? []), describeMatch(match, record)]);
  }
  const order = [...new Set([...FIELD_ORDER.map(([, name]) => name), 'text'])];
  return `matched ${order.filter((name) => byField.has(name)).map((name) => `${byField.get(name)!.join(', ')} in ${name}`).join('; ')}`;
}

/** `idOf` names another lesson by its number (the one relevance flowed from). */
export function explain(ranked: RankedLesson, record: DocRecord, idOf: (doc: number) => string): string[] {
  const reasons: string[] = [];
  if (ranked.words.length > 0) reasons.push(describeMatches(ranked.words, record));
  if (ranked.via) reasons.push(ranked.via.up ? `distilled from ${idOf(ranked.via.doc)}` : `a source of ${idOf(ranked.via.doc)}`);
  const matchedTerms = new Set(ranked.words.map((m) => m.term));
  const tags = record.tags.filter((tag) => words(tag).some((word) => matchedTerms.has(stem(word))));
  if (tags.length > 0) reasons.push(`tags ${tags.join(', ')}`);
  if (ranked.trigger) reasons.push(...ranked.trigger.reasons.map((reason) => `trigger: ${reason}`));
  if (record.severity === 'critical') reasons.push('critical');
  return reasons;
}
