import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../src/io/fs.js';
import { pick, seededRandom } from '../helpers/random.js';
import { tempDir } from '../helpers/repo.js';

/**
 * readRecords() reads a file a megabyte at a time and decodes whole records: whatever the
 * records hold (characters of several bytes across a megabyte's edge, a record longer than a
 * megabyte, a separator at the edge), it gives what splitting the whole text gives.
 */

const PIECES = ['a', 'lessons/cases/x.md', '\t', 'é', '日本', '😀', ' ', '{"f":[]}', 'z'.repeat(100)];

function randomText(random: () => number, separator: string, records: number): string {
  const out: string[] = [];
  for (let n = 0; n < records; n++) {
    let record = '';
    const length = Math.floor(random() * 60);
    for (let k = 0; k < length; k++) record += pick(random, PIECES);
    out.push(record);
  }
  return out.join(separator) + (random() < 0.5 ? separator : '');
}

describe('readRecords', () => {
  it('gives the records of splitting the whole text, across megabyte edges', () => {
    const dir = tempDir();
    const random = seededRandom(7);
    for (const separator of ['\n', '\0']) {
      for (let round = 0; round < 6; round++) {
        const text = randomText(random, separator, round < 3 ? 200 : 6_000);
        const file = path.join(dir, `records-${round}`);
        fs.writeFileSync(file, text);
        expect(readRecords(file, separator)).toEqual(text.split(separator));
      }
    }
  });

  it('reads a record longer than the buffer, a separator on the edge, and an empty file', () => {
    const dir = tempDir();
    const long = 'é'.repeat(1_500_000);
    const cases = ['', '\n', 'x', `${long}\n${long}`, `${'a'.repeat((1 << 20) - 1)}\nb\n`, `${'a'.repeat(1 << 20)}\nb`];
    cases.forEach((text, n) => {
      const file = path.join(dir, `edge-${n}`);
      fs.writeFileSync(file, text);
      expect(readRecords(file, '\n')).toEqual(text.split('\n'));
    });
  });
});
