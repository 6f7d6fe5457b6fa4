#!/usr/bin/env node
// Rebuilds data/thesaurus/stackoverflow-synonyms.tsv and stackoverflow-acronyms.tsv from Stack
// Overflow's tag synonyms (CC BY-SA 4.0; see data/thesaurus/README.md for the source and licence).
//
//   Stack Exchange Data Explorer, site stackoverflow: SELECT * FROM TagSynonyms  -> download CSV
//   node scripts/build-stackoverflow-vocabulary.mjs TagSynonyms.csv
//
// A tag synonym is a pair the site's users proposed and its moderators or voters approved: the
// first tag is rewritten to the second wherever it is used. Only approved pairs are read (an
// ApprovalDate). Two kinds are kept, each by a rule of how the tags are written, never by word:
// - Synonyms: both tags one word (db -> database, hg -> mercurial, subselect -> subquery).
//   One line per word, `word<TAB>related related ...`, both ways, as the WordNet file is.
// - Acronyms: one tag is one word made of the initials of the other's two or more words (ci ->
//   continuous-integration, dst -> daylight-savings-time, sso -> single-sign-on). One line per
//   pair, `acronym<TAB>word word ...`.
// Lines are sorted and the output is deterministic.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WORD = /^[a-z][a-z0-9]*$/;
const PHRASE_WORD = /^[a-z]+$/;

const input = process.argv[2];
if (!input) {
  process.stderr.write('usage: node scripts/build-stackoverflow-vocabulary.mjs <TagSynonyms.csv>\n');
  process.exit(2);
}
const outDir = process.argv[3] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'thesaurus');

/** RFC 4180 records: fields separated by commas, optionally quoted, "" for a quote inside quotes. */
function csvRecords(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field), records.push(record), (record = []), (field = '');
    } else field += c;
  }
  if (field !== '' || record.length > 0) record.push(field), records.push(record);
  return records.filter((r) => r.length > 1 || r[0] !== '');
}

let text;
try {
  text = fs.readFileSync(input, 'utf8');
} catch (error) {
  process.stderr.write(`${input}: cannot read it (${error.code ?? error.message}); give the path of a TagSynonyms CSV export\n`);
  process.exit(1);
}
const [header = [], ...rows] = csvRecords(text);
const column = (name) => {
  const at = header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
  if (at < 0) {
    process.stderr.write(`${input}: no ${name} column (a TagSynonyms export has SourceTagName, TargetTagName and ApprovalDate)\n`);
    process.exit(1);
  }
  return at;
};
const [source, target, approved] = [column('SourceTagName'), column('TargetTagName'), column('ApprovalDate')];

const synonyms = new Map();
const relate = (a, b) => {
  if (a === b) return;
  if (!synonyms.has(a)) synonyms.set(a, new Set());
  synonyms.get(a).add(b);
};
const acronyms = new Set();
const acronymOf = (word, tag) => {
  const parts = tag.split(/[-.]/).filter((part) => part !== '');
  if (parts.length < 2 || !parts.every((part) => PHRASE_WORD.test(part))) return;
  if (parts.map((part) => part[0]).join('') === word) acronyms.add(`${word}\t${parts.join(' ')}`);
};
let read = 0;
for (const row of rows) {
  if ((row[approved] ?? '').trim() === '') continue;
  const from = row[source].trim().toLowerCase();
  const to = row[target].trim().toLowerCase();
  read++;
  if (WORD.test(from) && WORD.test(to)) {
    relate(from, to);
    relate(to, from);
    continue;
  }
  if (WORD.test(from)) acronymOf(from, to);
  if (WORD.test(to)) acronymOf(to, from);
}

const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const synonymLines = [...synonyms.keys()].sort(byCodeUnit).map((word) => `${word}\t${[...synonyms.get(word)].sort(byCodeUnit).join(' ')}`);
const acronymLines = [...acronyms].sort(byCodeUnit);
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'stackoverflow-synonyms.tsv'), `${synonymLines.join('\n')}\n`);
fs.writeFileSync(path.join(outDir, 'stackoverflow-acronyms.tsv'), `${acronymLines.join('\n')}\n`);
process.stdout.write(`${read} approved tag synonyms -> ${synonymLines.length} words with synonyms, ${acronymLines.length} acronyms\n`);
