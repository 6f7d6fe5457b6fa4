#!/usr/bin/env node
// Rebuilds data/thesaurus/wordnet-synonyms.tsv from the WordNet 3.0 database files.
//
//   apt-get install wordnet-base          (Debian; Princeton WordNet 3.0, WordNet licence)
//   node scripts/build-thesaurus.mjs [/usr/share/wordnet]
//
// For every single-word lemma, the other single-word lemmas of its most common senses
// (WordNet lists a word's senses by frequency in its index files, and counts how many of them
// were seen in its sense-tagged texts). Rare senses are left out: they are what makes a general
// thesaurus noisy ("cache" the hoard, "flaky" the pastry, "image" the verb). A word seen in the
// tagged texts keeps only the senses seen there; a word never seen keeps its first sense per
// part of speech. One line per word: `word<TAB>related related ...`, sorted, deterministic.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How many of a word's senses count, most common first. */
const SENSES = 2;
const POS = ['noun', 'verb', 'adj', 'adv'];
const WORD = /^[a-z][a-z0-9]*$/;

const dir = process.argv[2] ?? '/usr/share/wordnet';
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'thesaurus', 'wordnet-synonyms.tsv');

function lemmasOf(dataLines, offset) {
  const line = dataLines.get(offset);
  if (!line) return [];
  const fields = line.split(' ');
  const count = parseInt(fields[3], 16);
  const lemmas = [];
  for (let i = 0; i < count; i++) lemmas.push(fields[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
  return lemmas;
}

// Words seen in WordNet's sense-tagged texts in some part of speech: for them, only the senses
// seen there count (a part of speech the word was never seen in, like "image" the verb, adds none).
const taggedAnywhere = new Set();
for (const pos of POS) {
  for (const line of fs.readFileSync(path.join(dir, `index.${pos}`), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const fields = line.trim().split(' ');
    if (Number(fields[4 + Number(fields[3]) + 1]) > 0) taggedAnywhere.add(fields[0]);
  }
}

const related = new Map();
for (const pos of POS) {
  const data = new Map();
  for (const line of fs.readFileSync(path.join(dir, `data.${pos}`), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    data.set(line.slice(0, 8), line);
  }
  for (const line of fs.readFileSync(path.join(dir, `index.${pos}`), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const fields = line.trim().split(' ');
    const word = fields[0];
    if (!WORD.test(word)) continue;
    const synsets = Number(fields[2]);
    const pointers = Number(fields[3]);
    const tagged = Number(fields[4 + pointers + 1]);
    const offsets = fields.slice(4 + pointers + 2, 4 + pointers + 2 + synsets);
    for (const offset of offsets.slice(0, Math.min(SENSES, taggedAnywhere.has(word) ? tagged : 1))) {
      for (const lemma of lemmasOf(data, offset)) {
        if (lemma === word || !WORD.test(lemma)) continue;
        let set = related.get(word);
        if (!set) related.set(word, (set = new Set()));
        set.add(lemma);
      }
    }
  }
}
const lines = [...related.keys()].sort().map((word) => `${word}\t${[...related.get(word)].sort().join(' ')}`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${lines.join('\n')}\n`);
process.stdout.write(`${lines.length} words -> ${path.relative(process.cwd(), out)}\n`);
