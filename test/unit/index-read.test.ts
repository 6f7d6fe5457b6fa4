import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexStaleness } from '../../src/index/diff.js';
import { parseIndexEntries } from '../../src/index/read.js';
import { hookIndexEntries } from '../../src/agent/health.js';
import { buildIndex, serializeIndex } from '../../src/index/build.js';
import { loadLessons } from '../../src/lesson/load.js';
import { lessonFile } from '../helpers/lessons.js';
import { writeFiles } from '../helpers/repo.js';

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

  it('an index a union merge left with a line after the wrong neighbour is stale to the hooks: they scan the files', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-index-'));
    dirs.push(root);
    writeFiles(root, { ...lessonFile({ id: 'case-2026-01-02-b', severity: 'high' }), ...lessonFile({ id: 'case-2026-01-04-d' }) });
    const index = serializeIndex(buildIndex(loadLessons(root).lessons));
    fs.writeFileSync(path.join(root, 'lessons/index.json'), index);
    const fresh: string[] = [];
    expect((await hookIndexEntries(root, fresh)).map((entry) => entry.severity)).toEqual(['high', 'medium']);
    expect(fresh).toEqual([]);
    // Union kept an older version of b's line (severity low) after b's own line.
    const lines = index.split('\n');
    lines.splice(4, 0, lines[3]!.replace('"severity":"high"', '"severity":"low"'));
    fs.writeFileSync(path.join(root, 'lessons/index.json'), lines.join('\n'));
    const merged: string[] = [];
    expect((await hookIndexEntries(root, merged)).map((entry) => entry.severity)).toEqual(['high', 'medium']);
    expect(merged.join('\n')).toContain('lessons/index.json lists lessons twice, out of order or after the wrong neighbour; the hooks scan the lesson files instead');
  });

  it('says what is stale in one set of words for the index command and the guard', () => {
    expect(indexStaleness(false, { added: ['b'], removed: ['c'], changed: ['a'] })).toEqual({
      headline: 'lessons/index.json is stale',
      details: ['not in the index: b', 'no longer in the tree: c', 'changed: a'],
    });
    expect(indexStaleness(false, { added: [], removed: [], changed: [] }).details).toEqual(["only the file's formatting differs"]);
    expect(indexStaleness(true, { added: ['a'], removed: [], changed: [] })).toEqual({ headline: 'lessons/index.json is missing', details: ['not in the index: a'] });
    // A repository of thousands of lessons without its index gets a line, not every id (--json lists them all).
    const many = Array.from({ length: 2500 }, (_, n) => `case-${String(n).padStart(4, '0')}`);
    expect(indexStaleness(true, { added: many, removed: [], changed: [] }).details).toEqual([`not in the index: ${many.slice(0, 10).join(', ')} and 2490 more`]);
  });
});
