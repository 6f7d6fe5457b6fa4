import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex, serializeIndex } from '../../src/index/build.js';
import { writeIndex } from '../../src/store/index-write.js';
import { loadLessons } from '../../src/lesson/load.js';
import { preflight, type PreflightOptions } from '../../src/preflight/preflight.js';
import { readReceiptText } from '../../src/io/receipt-file.js';
import { RECEIPT_FILE } from '../../src/io/repo.js';
import { receiptFromText } from '../../src/preflight/receipt.js';
import { CACHE_FILE } from '../../src/search/cache.js';
import { sha256 } from '../../src/util/digest.js';
import { lessonFile } from '../helpers/lessons.js';
import { NOW, RELEASE_AND_FORCE_PUSH } from '../helpers/preflight.js';

const readLastReceipt = (root: string) => receiptFromText(readReceiptText(root));
import { tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const LESSONS = RELEASE_AND_FORCE_PUSH;

function options(cwd: string, task: string, extra: Partial<PreflightOptions> = {}): PreflightOptions {
  return { cwd, now: NOW, task, paths: [], tool: null, command: null, project: null, format: 'text', ...extra };
}

async function indexedRepo(files: Record<string, string> = LESSONS): Promise<string> {
  const root = tempLessonsRepo(files);
  await writeIndex({ cwd: root });
  return root;
}

const ids = (result: Awaited<ReturnType<typeof preflight>>): string[] => result.report.selected.map((lesson) => lesson.id);

/** Sets a path's mtime `seconds` from now, so freshness checks do not depend on timing. */
function touch(file: string, seconds: number): void {
  const time = new Date(Date.now() + seconds * 1000);
  fs.utimesSync(file, time, time);
}

describe('preflight receipt', () => {
  it('records every run in .lessons/preflight/last.json with exactly the agreed shape, and ignores .lessons/ in git', async () => {
    const root = await indexedRepo();
    const result = await preflight(options(root, 'bump the plugin version', { paths: ['packages/cli/package.json'], tool: 'Edit' }));
    const receipt = JSON.parse(fs.readFileSync(path.join(root, RECEIPT_FILE), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(receipt)).toEqual(['version', 'task', 'paths', 'tool', 'command', 'project', 'selected', 'related', 'index_digest', 'created_at']);
    expect(receipt).toEqual({
      version: 1,
      task: 'bump the plugin version',
      paths: ['packages/cli/package.json'],
      tool: 'Edit',
      command: null,
      project: null,
      selected: ids(result),
      related: result.report.related.map((lesson) => lesson.id),
      index_digest: sha256(fs.readFileSync(path.join(root, 'lessons/index.json'))),
      created_at: NOW.toISOString(),
    });
    expect(ids(result)).toEqual(['case-2026-01-01-version-bump-missed-manifest']);
    expect(readLastReceipt(root)).toEqual(receipt);
    expect(fs.readFileSync(path.join(root, '.lessons/.gitignore'), 'utf8')).toBe('*\n');
    // Atomic writes leave no temp files behind.
    expect(fs.readdirSync(path.join(root, '.lessons/preflight'))).toEqual(['last.json']);
  });

  it('records an empty selection too, and readLastReceipt ignores a missing or malformed receipt', async () => {
    const root = await indexedRepo();
    expect(readLastReceipt(root)).toBeUndefined();
    const result = await preflight(options(root, 'write a haiku for the newsletter'));
    expect(result.report.selected).toEqual([]);
    expect(result.report.message).toMatch(/relevance floor/);
    expect(readLastReceipt(root)?.selected).toEqual([]);
    fs.writeFileSync(path.join(root, RECEIPT_FILE), '{"version": 1}');
    expect(readLastReceipt(root)).toBeUndefined();
  });

  it('stores --path values repo-relative, even when given as absolute paths', async () => {
    const root = await indexedRepo();
    await preflight(options(root, 'release', { paths: [path.join(root, 'packages/cli/package.json'), './README.md'] }));
    expect(readLastReceipt(root)?.paths).toEqual(['packages/cli/package.json', 'README.md']);
  });
});

describe('preflight search cache', () => {
  it('indexes the whole lesson text when the cache is built, and never reads lesson files at query time', async () => {
    const story = '## Situation\n\nThe pgbouncer pool ran dry during the ledger export.\n\n## Prevention Checklist\n\n- [ ] Size the pool for the export.\n';
    const root = await indexedRepo({ ...LESSONS, ...lessonFile({ id: 'case-2026-02-01-export-held-connections', title: 'Export held every connection', tags: ['database'] }, story) });
    const task = 'pgbouncer pool during the ledger export';
    expect(ids(await preflight(options(root, task)))).toContain('case-2026-02-01-export-held-connections');
    // Rewrite the file in place (the folder and the index stay as they were): the cached text still answers.
    const file = path.join(root, 'lessons/cases/case-2026-02-01-export-held-connections.md');
    const folder = fs.statSync(path.dirname(file));
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('pgbouncer pool ran dry', 'nothing in particular'));
    fs.utimesSync(path.dirname(file), folder.atime, folder.mtime);
    expect(ids(await preflight(options(root, task)))).toContain('case-2026-02-01-export-held-connections');
  });

  it('builds the cache on the first run and reuses it while index.json is unchanged', async () => {
    const root = await indexedRepo();
    await preflight(options(root, 'release'));
    const first = fs.statSync(path.join(root, CACHE_FILE));
    await preflight(options(root, 'release'));
    const second = fs.statSync(path.join(root, CACHE_FILE));
    expect(second.ino).toBe(first.ino);
    expect(second.mtimeMs).toBe(first.mtimeMs);
  });

  it('rebuilds the cache when the index changes', async () => {
    const root = await indexedRepo();
    expect(ids(await preflight(options(root, 'rotate the leaked database password')))).toEqual([]);
    writeFiles(root, lessonFile({ id: 'case-2026-01-03-leaked-password-not-rotated', title: 'Leaked database password was not rotated', tags: ['secrets'] }));
    await writeIndex({ cwd: root });
    const result = await preflight(options(root, 'rotate the leaked database password'));
    expect(result.warning).toBeUndefined();
    expect(ids(result)).toEqual(['case-2026-01-03-leaked-password-not-rotated']);
    expect(readLastReceipt(root)?.index_digest).toBe(sha256(fs.readFileSync(path.join(root, 'lessons/index.json'))));
  });

  it('rebuilds a cache file that is damaged', async () => {
    const root = await indexedRepo();
    await preflight(options(root, 'bump the plugin version'));
    fs.writeFileSync(path.join(root, CACHE_FILE), 'not a cache');
    expect(ids(await preflight(options(root, 'bump the plugin version')))).toContain('case-2026-01-01-version-bump-missed-manifest');
    const cache = fs.readFileSync(path.join(root, CACHE_FILE));
    fs.writeFileSync(path.join(root, CACHE_FILE), cache.subarray(0, cache.length - 10));
    expect(ids(await preflight(options(root, 'bump the plugin version')))).toContain('case-2026-01-01-version-bump-missed-manifest');
    expect(fs.readFileSync(path.join(root, CACHE_FILE)).subarray(0, 4).toString()).toBe('LSC1');
  });
});

describe('preflight without a usable index', () => {
  it('scans the lesson files when lessons/index.json is missing, with a one-line warning', async () => {
    const root = tempLessonsRepo(LESSONS);
    const result = await preflight(options(root, 'bump the plugin version'));
    expect(result.warning).toBe('lessons/index.json is missing; scanned the lesson files instead (run `lessons index` to make preflight fast again)');
    expect(ids(result)).toEqual(['case-2026-01-01-version-bump-missed-manifest']);
    const tree = serializeIndex(buildIndex(loadLessons(root).lessons));
    expect(readLastReceipt(root)?.index_digest).toBe(sha256(tree));
  });

  it('scans the lesson files when a lesson changed after the index was built', async () => {
    const root = await indexedRepo();
    touch(path.join(root, 'lessons/index.json'), -60);
    writeFiles(root, lessonFile({ id: 'case-2026-01-03-leaked-password-not-rotated', title: 'Leaked database password was not rotated' }));
    const result = await preflight(options(root, 'rotate the leaked database password'));
    expect(result.warning).toMatch(/^lessons\/index\.json is older than the lesson files; scanned the lesson files instead/);
    expect(ids(result)).toEqual(['case-2026-01-03-leaked-password-not-rotated']);
  });

  it('does not warn when the folders are newer but the index still matches them (as after a checkout)', async () => {
    const root = await indexedRepo();
    touch(path.join(root, 'lessons/index.json'), -60);
    const first = await preflight(options(root, 'bump the plugin version'));
    expect(first.warning).toBeUndefined();
    const second = await preflight(options(root, 'bump the plugin version'));
    expect(second.warning).toBeUndefined();
    expect(ids(second)).toEqual(['case-2026-01-01-version-bump-missed-manifest']);
  });

  it('scans the lesson files when lessons/index.json is not a valid index', async () => {
    const root = await indexedRepo();
    fs.writeFileSync(path.join(root, 'lessons/index.json'), '{"lessons": [{"id": 1}]');
    const result = await preflight(options(root, 'bump the plugin version'));
    expect(result.warning).toMatch(/^lessons\/index\.json is not a valid index/);
    expect(ids(result)).toEqual(['case-2026-01-01-version-bump-missed-manifest']);
  });

  it('fails with a usage error outside a lessons repository', async () => {
    await expect(preflight(options(tempDir(), 'release'))).rejects.toMatchObject({ code: 'NOT_A_LESSONS_REPO', exitCode: 2 });
  });
});
