import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { IndexEntry } from '../../src/index/build.js';
import { LEVELS, SEVERITIES, STATUSES } from '../../src/lesson/model.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { Workspace } from '../../src/search/kernels.js';
import { buildQuery } from '../../src/preflight/query.js';
import { rankLessons } from '../../src/preflight/rank.js';
import { VOCABULARY } from '../../src/search/vocabulary.js';
import { indexEntry, NOW, searchIndexWithSources, taskInput } from '../helpers/preflight.js';
import { pick, seededRandom } from '../helpers/random.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const WORDS = ['release', 'version', 'manifest', 'database', 'migration', 'lock', 'cache', 'retry', 'webhook', 'deploy', 'rollback', 'secret', 'token', 'queue', 'timeout', 'index', 'schema', 'publish', 'ledger', 'payment'];
const TAGS = ['release', 'database', 'security', 'queues', 'ci', 'versioning'];
const PROJECTS = [null, 'ledger', 'billing'];

/** A corpus of `count` lessons of random words, kinds and metadata, with promotion links among them. */
function corpus(random: () => number, prefix: string, count: number): IndexEntry[] {
  const words = (n: number): string => Array.from({ length: n }, () => pick(random, WORDS)).join(' ');
  const entries = Array.from({ length: count }, (_, i) => {
    const level = pick(random, LEVELS);
    return indexEntry({
      id: `${level}-${prefix}${String(i).padStart(5, '0')}`,
      level,
      title: words(4),
      summary: words(10),
      tags: [pick(random, TAGS), pick(random, TAGS)].filter((tag, k, all) => all.indexOf(tag) === k),
      checklist: [words(6), words(5)],
      severity: pick(random, SEVERITIES),
      status: pick(random, STATUSES.filter((s) => s !== 'retired')),
      confidence: 1 + Math.floor(random() * 5),
      transferability: 1 + Math.floor(random() * 5),
      occurrences: 1 + Math.floor(random() * 12),
      last_validated_at: random() < 0.2 ? null : `2026-${String(1 + Math.floor(random() * 11)).padStart(2, '0')}-10`,
      project: pick(random, PROJECTS),
      triggers: random() < 0.1 ? { tools: ['Edit'], paths: ['**/package.json'], keywords: [words(2)] } : {},
    });
  });
  // Cases promoted into patterns, patterns into principles.
  const above = (level: string): IndexEntry[] => entries.filter((e) => e.level === level);
  for (const entry of entries) {
    const into = entry.level === 'case' ? above('pattern') : entry.level === 'pattern' ? above('principle') : [];
    if (into.length === 0 || random() < 0.5) continue;
    const target = pick(random, into);
    entry.promoted_into.push(target.id);
    target.promoted_from.push(entry.id);
  }
  return entries.sort((a, b) => (a.id < b.id ? -1 : 1));
}

describe('ranking kernels', () => {
  it('the WebAssembly module is what kernels.wat assembles to', () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-kernels.mjs'), '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('compiles here, so the comparisons below compare WebAssembly with JavaScript', () => {
    expect(new Workspace({ docCount: 10, localLessons: 10, sourceLessons: 0, runPostings: 0, runBytes: 0 }, 'wasm').kind).toBe('wasm');
    expect(new Workspace({ docCount: 10, localLessons: 10, sourceLessons: 0, runPostings: 0, runBytes: 0 }, 'js').kind).toBe('js');
  });

  it('WebAssembly and JavaScript rank every lesson alike, to the last bit, with projects, triggers, lineage and shadowed source lessons', () => {
    const random = seededRandom(20261126);
    const local = corpus(random, 'l', 600);
    const sources = corpus(random, 's', 900).map((entry) => ({ ...entry, id: `platform:${entry.id}`, promoted_into: entry.promoted_into.map((id) => `platform:${id}`), promoted_from: entry.promoted_from.map((id) => `platform:${id}`) }));
    // Some source lessons have a local lesson's id: those are never shown.
    for (let i = 0; i < sources.length; i += 37) sources[i] = { ...sources[i]!, id: `platform:${local[(i * 7) % local.length]!.id}` };
    sources.sort((a, b) => (a.id < b.id ? -1 : 1));
    const index = searchIndexWithSources(local, sources);
    let compared = 0;
    for (let task = 0; task < 40; task++) {
      const words = Array.from({ length: 2 + Math.floor(random() * 5) }, () => pick(random, WORDS));
      // Misspellings and longer forms exercise the expansions (a concept of several expansions).
      if (random() < 0.3) words.push(`${pick(random, WORDS)}s`, `${pick(random, WORDS).slice(0, -1)}x`);
      const input = taskInput(words.join(' '), {
        project: random() < 0.3 ? pick(random, ['ledger', 'billing', 'unknown']) : null,
        ...(random() < 0.2 ? { paths: ['services/api/package.json'], tool: 'Edit' } : {}),
      });
      const query = buildQuery(input, VOCABULARY);
      const wasm = rankLessons(index, query, DEFAULT_POLICY, NOW, 'wasm');
      const js = rankLessons(index, query, DEFAULT_POLICY, NOW, 'js');
      expect(wasm).toEqual(js);
      compared += wasm.length;
      const shown = new Set(wasm.map((r) => index.record(r.doc).id));
      // A shadowed source lesson is never among them.
      for (const id of shown) if (id.startsWith('platform:')) expect(local.some((entry) => entry.id === id.slice('platform:'.length))).toBe(false);
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('each loop gives the same memory from both, on random input', () => {
    const n = 5000;
    const run = (kind: 'wasm' | 'js') => {
      const r = seededRandom(99);
      const ws = new Workspace({ docCount: n, localLessons: 3000, sourceLessons: 2000, runPostings: 8000, runBytes: 8000 * 9 + 8 }, kind);
      for (let i = 0; i < ws.localRows.length; i++) ws.localRows[i] = Math.floor(r() * 4);
      for (let i = 0; i < ws.sourceRows.length; i++) ws.sourceRows[i] = Math.floor(r() * 4);
      for (let i = 0; i < ws.tables.length; i++) ws.tables[i] = 0.5 + r();
      const runs = [0, 1].map(() => {
        const docs = Uint32Array.from(new Set(Array.from({ length: 4000 }, () => Math.floor(r() * 2500)))).sort();
        const run = { docs, scores: Float32Array.from(docs, () => r() * 3), fields: Uint8Array.from(docs, () => 1 + Math.floor(r() * 127)), offset: docs.length % 2 === 0 ? 0 : 2500 };
        return ws.addRun({ count: docs.length, offset: run.offset, read: () => run });
      });
      for (const each of runs) ws.fold(each, 0.7, 4 | 32, 16);
      for (let doc = 0; doc < n; doc += 97) ws.triggered[doc] = 1;
      for (let doc = 1; doc < n; doc += 113) ws.shadowed[doc] = 1;
      const best = ws.bestByText(50);
      const kept = ws.score(200, { information: 2.5, lessonFloor: 1, coordinationFloor: 0.6, tagWeight: 0.1, keywordWeight: 0.1, localLessons: 3000, today: 20_000, staleDays: 180, recency: 0.1, project: { local: 1, sources: 2 }, sameProject: 1.2 });
      const fields = runs.map((each) => ws.fieldsOf(each, [...kept.docs].sort((a, b) => a - b)));
      return { best, kept, fields, text: [...ws.text], evidence: [...ws.evidence], coverage: [...ws.coverage], tags: [...ws.tags], keywords: [...ws.keywords], docs: [...ws.docs.subarray(0, ws.count)] };
    };
    const wasm = run('wasm');
    const js = run('js');
    expect(wasm.kept.docs.length).toBeGreaterThan(100);
    expect(wasm).toEqual(js);
  });
});
