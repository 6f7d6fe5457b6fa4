import type { RankedLesson, WordMatch } from './rank.js';
import { FIELD_BIT, FIELDS, type DocRecord, type Field } from './search-index.js';
import { stem, words } from './text.js';

/** Why a lesson was chosen, in words a reader can check against the lesson. */

function fieldNames(bits: number): string {
  const names = FIELDS.filter((field: Field) => (bits & FIELD_BIT[field]) !== 0)
    .map((field) => (field === 'keywords' ? 'trigger keywords' : field === 'tagWords' ? 'tags' : field))
  return [...new Set(names)].join(', ');
}

/** The lesson's own word for a stemmed term, so reasons read "released", not "releas". */
function surfaceWord(record: DocRecord, term: string): string {
  const texts = [record.title, ...record.tags, ...record.keywords, record.summary, ...record.checklist];
  for (const text of texts) for (const word of words(text)) if (stem(word) === term) return word;
  return term;
}

function describeMatch(match: WordMatch, record: DocRecord): string {
  const where = fieldNames(match.fields);
  const found = surfaceWord(record, match.term);
  if (match.kind === 'exact') return `"${match.word}" in ${where}`;
  const how = match.kind === 'synonym' ? 'related word' : match.kind === 'prefix' ? 'longer word' : 'similar spelling';
  return `"${match.word}" ~ "${found}" (${how}) in ${where}`;
}

export function explain(ranked: RankedLesson, record: DocRecord): string[] {
  const reasons: string[] = [];
  const matches = [...ranked.words].sort((a, b) => Number(a.kind !== 'exact') - Number(b.kind !== 'exact'));
  if (matches.length > 0) reasons.push(`matched ${matches.map((m) => describeMatch(m, record)).join(', ')}`);
  const matchedTerms = new Set(ranked.words.map((m) => m.term));
  const tags = record.tags.filter((tag) => words(tag).some((word) => matchedTerms.has(stem(word))));
  if (tags.length > 0) reasons.push(`tags ${tags.join(', ')}`);
  if (ranked.trigger) reasons.push(...ranked.trigger.reasons.map((reason) => `trigger: ${reason}`));
  if (record.severity === 'critical') reasons.push('critical');
  return reasons;
}
