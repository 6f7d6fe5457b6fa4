import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/io/package-root.js';
import { parseAcronyms } from '../../src/search/acronyms.js';
import { stem } from '../../src/search/text.js';

const SCRIPT = path.join(packageRoot(), 'scripts/build-stackoverflow-vocabulary.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the build script over `csv` into a fresh folder: its exit, output and the two files. */
function build(csv: string): { status: number | null; stderr: string; synonyms: string; acronyms: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'so-vocabulary-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'TagSynonyms.csv'), csv);
  const result = spawnSync(process.execPath, [SCRIPT, path.join(dir, 'TagSynonyms.csv'), path.join(dir, 'out')], { encoding: 'utf8' });
  const read = (name: string): string => (fs.existsSync(path.join(dir, 'out', name)) ? fs.readFileSync(path.join(dir, 'out', name), 'utf8') : '');
  return { status: result.status, stderr: result.stderr, synonyms: read('stackoverflow-synonyms.tsv'), acronyms: read('stackoverflow-acronyms.tsv') };
}

// The columns of a Stack Exchange Data Explorer export of TagSynonyms.
const HEADER = 'Id,SourceTagName,TargetTagName,CreationDate,OwnerUserId,AutoRenameCount,LastAutoRename,Score,ApprovedByUserId,ApprovalDate';
const row = (id: number, from: string, to: string, approved = true): string =>
  `"${id}","${from}","${to}","2010-07-16 00:00:00","1","0","","0","${approved ? '1' : ''}","${approved ? '2010-07-16 00:00:00' : ''}"`;

describe('scripts/build-stackoverflow-vocabulary.mjs', () => {
  it('keeps approved one-word synonyms both ways and acronyms made of a tag\'s initials, sorted', () => {
    const csv = [
      HEADER,
      row(1, 'postgres', 'postgresql'),
      row(2, 'db', 'database'),
      row(3, 'dbms', 'database'),
      row(4, 'ci', 'continuous-integration'),
      row(5, 'daylight-savings-time', 'dst'),
      // Proposed, never approved.
      row(6, 'spot', 'preemptible', false),
      // Not initials of the other tag's words, or not one word on either side.
      row(7, 'fix', 'fix-protocol'),
      row(8, 'source-control', 'version-control'),
    ].join('\r\n');
    const out = build(`${csv}\r\n`);
    expect(out.status).toBe(0);
    expect(out.synonyms).toBe('database\tdb dbms\ndb\tdatabase\ndbms\tdatabase\npostgres\tpostgresql\npostgresql\tpostgres\n');
    expect(out.acronyms).toBe('ci\tcontinuous integration\ndst\tdaylight savings time\n');
    expect(parseAcronyms(out.acronyms).startingWith(stem('daylight'))).toEqual([{ acronym: 'dst', stems: ['daylight', 'savings', 'time'].map(stem) }]);
  });

  it('reads quoted fields with commas and quotes in them, and refuses a file without the TagSynonyms columns or none at all', () => {
    const quoted = build(`${HEADER}\n"1","k8s","kubernetes","2015-01-01, noon","1","0","","0","1","2015 ""Jan"""\n`);
    expect(quoted.synonyms).toBe('k8s\tkubernetes\nkubernetes\tk8s\n');
    const wrong = build('Id,Name\n1,foo\n');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('no SourceTagName column');
    expect(wrong.synonyms).toBe('');
    const missing = spawnSync(process.execPath, [SCRIPT, path.join(os.tmpdir(), 'no-such-export.csv')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no-such-export\.csv: cannot read it \(ENOENT\)/);
    expect(missing.stderr).not.toContain('    at ');
  });
});
