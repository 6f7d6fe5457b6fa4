import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PIECE_UNITS, writeText } from '../../src/io/output.js';
import { tempDir } from '../helpers/repo.js';

describe('printing', () => {
  it('writes long text a piece at a time, byte for byte, a surrogate pair never split across pieces', () => {
    const file = path.join(tempDir(), 'out.txt');
    // Multi-byte characters throughout, and an astral one (two units) straddling every piece boundary.
    const line = 'lessons/cases/é-ü.md:3: warning [stale] …\n';
    let text = '';
    while (text.length < 3 * PIECE_UNITS) {
      text += line.repeat(Math.max(1, Math.floor((PIECE_UNITS - 1 - (text.length % PIECE_UNITS)) / line.length)));
      text += 'x'.repeat(PIECE_UNITS - 1 - (text.length % PIECE_UNITS));
      text += '𝔘 then more\n';
    }
    expect(text.charCodeAt(PIECE_UNITS - 1)).toBe(0xd835);
    for (const sample of [text, 'short é 𝔘\n']) {
      const fd = fs.openSync(file, 'w');
      try {
        writeText(fd, sample);
      } finally {
        fs.closeSync(fd);
      }
      expect(fs.readFileSync(file).equals(Buffer.from(sample, 'utf8'))).toBe(true);
    }
  });
});
