import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexStaleness } from '../../src/index/diff.js';
import { parseIndexEntries } from '../../src/index/read.js';
import { hookIndexEntries } from '../../src/agent/health.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('reading lessons/index.json', () => {
  it('keeps the entries that have an id, and answers undefined for text that is not an index', () => {
    expect(parseIndexEntries('{"version":1,"lessons":[{"id":"a"},{"title":"no id"},null,7]}')).toEqual([{ id: 'a' }]);
    for (const text of ['', '{', '[]', '{"lessons":{}}', 'null']) expect(parseIndexEntries(text), text).toBeUndefined();
  });

  it('a missing or corrupt index is no index to the hooks, not a crash: they scan and say why', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-index-'));
    dirs.push(root);
    fs.mkdirSync(path.join(root, 'lessons'));
    const missing: string[] = [];
    expect(await hookIndexEntries(root, missing)).toEqual([]);
    expect(missing.join('\n')).toContain('lessons/index.json is missing');
    fs.writeFileSync(path.join(root, 'lessons/index.json'), '{ not json');
    const corrupt: string[] = [];
    expect(await hookIndexEntries(root, corrupt)).toEqual([]);
    expect(corrupt.join('\n')).toContain('not valid JSON');
  });

  it('says what is stale in one set of words for the index command and the guard', () => {
    expect(indexStaleness(false, { added: ['b'], removed: ['c'], changed: ['a'] })).toEqual({
      headline: 'lessons/index.json is stale',
      details: ['not in the index: b', 'no longer in the tree: c', 'changed: a'],
    });
    expect(indexStaleness(false, { added: [], removed: [], changed: [] }).details).toEqual(["only the file's formatting differs"]);
    expect(indexStaleness(true, { added: ['a'], removed: [], changed: [] })).toEqual({ headline: 'lessons/index.json is missing', details: ['not in the index: a'] });
  });
});
