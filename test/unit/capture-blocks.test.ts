import { describe, expect, it } from 'vitest';
import { extractDrafts } from '../../src/capture/blocks.js';
import { singleLinkage } from '../helpers/similarity.js';
import { POSTINGS_CAP, comparableText, fingerprint, foldText, likelyAlike, similarGroups, similarity, words, type Fingerprint } from '../../src/search/similarity.js';

const BLOCK = `[LESSON]
title: Version bump missed the marketplace manifest
tags: [release, Versioning]
severity: high
confidence: 4
paths: ["**/package.json", "**/plugin.json"]
## Situation
Released 1.2.0.
## Prevention Checklist
- [ ] Every manifest carrying the version is bumped in one commit.
[/LESSON]`;

describe('extractDrafts', () => {
  it('reads fields and card sections from a block in plain text', () => {
    expect(extractDrafts(`Some answer.\n\n${BLOCK}\n\nDone.`)).toEqual([
      {
        title: 'Version bump missed the marketplace manifest',
        tags: ['release', 'Versioning'],
        severity: 'high',
        confidence: 4,
        triggers: { paths: ['**/package.json', '**/plugin.json'] },
        body: '## Situation\nReleased 1.2.0.\n## Prevention Checklist\n- [ ] Every manifest carrying the version is bumped in one commit.\n',
      },
    ]);
  });

  it('takes a PROCESS_KNOWLEDGE block without fields: first line is the title, prose the situation', () => {
    const [draft] = extractDrafts('[PROCESS_KNOWLEDGE]\nRun migrations before the deploy\nThe API failed on a missing column.\n## Prevention Checklist\n- Migrate first.\n[/PROCESS_KNOWLEDGE]');
    expect(draft).toEqual({
      title: 'Run migrations before the deploy',
      tags: ['process-knowledge'],
      body: '## Situation\n\nThe API failed on a missing column.\n\n## Prevention Checklist\n- Migrate first.\n',
    });
  });

  it('finds blocks inside the string fields of a JSONL transcript, once each', () => {
    const lines = [
      JSON.stringify({ type: 'user', message: { content: 'fix the release' } }),
      JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: `Fixed.\n${BLOCK}` }] } }),
      JSON.stringify({ type: 'tool_result', content: BLOCK }),
      '{"truncated": ',
    ];
    const drafts = extractDrafts(lines.join('\n'));
    expect(drafts.map((draft) => draft.title)).toEqual(['Version bump missed the marketplace manifest']);
  });

  it('finds blocks in a JSON document and in CRLF text', () => {
    expect(extractDrafts(JSON.stringify({ body: BLOCK })).length).toBe(1);
    expect(extractDrafts(BLOCK.replace(/\n/g, '\r\n'))[0]!.title).toBe('Version bump missed the marketplace manifest');
  });

  it('ignores placeholder blocks, unclosed blocks and mismatched tags', () => {
    expect(extractDrafts('Write lessons as [LESSON] ... [/LESSON] blocks.')).toEqual([]);
    expect(extractDrafts('[LESSON]\ntitle: never closed\n')).toEqual([]);
    expect(extractDrafts('[LESSON]\ntitle: x\n[/PROCESS_KNOWLEDGE]')).toEqual([]);
  });
});

describe('similarity', () => {
  const item = (title: string, summary = '', checklist: string[] = []) => fingerprint({ title, summary, checklist });

  it('is 1 for the same normalised title', () => {
    expect(similarity(item('Version bump missed the manifest!'), item('version  BUMP missed manifest'))).toBe(1);
  });

  it('is high for a reworded duplicate and low for an unrelated lesson', () => {
    const a = item('Version bump missed the marketplace manifest', 'The release bumped package.json only.', ['Every manifest carrying the version is bumped in one commit.']);
    const b = item('Version bump missed marketplace manifest again', 'The release bumped package.json only.', ['Every manifest carrying the version is bumped in one commit.']);
    const c = item('Cron job skipped a run at the DST change', 'The scheduler used local time.', ['Schedule jobs in UTC.']);
    expect(similarity(a, b)).toBeGreaterThanOrEqual(0.82);
    expect(similarity(a, c)).toBe(0);
  });
});

describe('similarGroups', () => {
  it('finds the same groups as comparing every pair', () => {
    const vocabulary = 'release manifest version cron timezone retry queue charge invoice cache token secret log email migration index deploy rollback'.split(' ');
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const texts = Array.from({ length: 120 }, () => Array.from({ length: 3 + Math.floor(next() * 6) }, () => vocabulary[Math.floor(next() * vocabulary.length)]!).join(' '));
    const prints = texts.map((text, n) => fingerprint({ title: n % 10 === 0 ? 'same title' : `${text} ${n}`, summary: text, checklist: [] }));
    for (const threshold of [0.35, 0.6, 0.82]) {
      const fast = similarGroups(prints, threshold).map((group) => group.members.join());
      expect(fast.sort()).toEqual(singleLinkage(prints, threshold));
      expect(fast.length).toBeGreaterThan(0);
    }
  });
});

describe('likelyAlike', () => {
  it('finds every text at least as similar as the threshold, or of the same title, and few others', () => {
    const vocabulary = 'release manifest version cron timezone retry queue charge invoice cache token secret log email migration index deploy rollback'.split(' ');
    let seed = 11;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const sentence = (): string => Array.from({ length: 3 + Math.floor(next() * 6) }, () => vocabulary[Math.floor(next() * vocabulary.length)]!).join(' ');
    const items = Array.from({ length: 400 }, (_, n) => ({ title: n % 25 === 0 ? 'Same title' : `${sentence()} ${n}`, summary: `${sentence()}${n % 50 === 7 ? ' reconciliation ledger' : ''}`, checklist: [sentence()] }));
    const folded = items.map((item) => foldText(comparableText(item)));
    for (const threshold of [0.5, 0.82]) {
      for (const probe of items.slice(0, 40)) {
        const print = fingerprint(probe);
        const found = new Set(likelyAlike(print, words(probe.title), folded, threshold));
        const alike = items.map((item, n) => [n, similarity(print, fingerprint(item))] as const).filter(([, score]) => score >= threshold);
        for (const [n] of alike) expect(found.has(n)).toBe(true);
      }
    }
    // A text with rare words meets only the texts that hold them.
    const rare = fingerprint({ title: 'Reconciliation of the ledger drifted', summary: 'The reconciliation ledger', checklist: [] });
    expect(likelyAlike(rare, words('Reconciliation of the ledger drifted'), folded, 0.82)).toEqual(items.flatMap((_, n) => (n % 50 === 7 ? [n] : [])));
  });
});

describe('similarGroups at scale', () => {
  /** `count` texts that read nearly alike (one common sentence, a distinct title and service each). */
  function alike(count: number): Fingerprint[] {
    return Array.from({ length: count }, (_, n) =>
      fingerprint({ title: `Deploy of service ${n.toString(36)} broke the cache`, summary: 'The release bumped the manifest, the cache kept the old bundle and every client broke.', checklist: ['Purge the cache on deploy.'] }),
    );
  }

  it('meets a number of pairs linear in the texts, however alike they are, and still joins them', () => {
    const small = { met: 0 };
    const large = { met: 0 };
    const groups = similarGroups(alike(4_000), 0.8, large);
    similarGroups(alike(1_000), 0.8, small);
    // All pairs would be 16 times as many for four times the texts.
    expect(large.met / small.met).toBeLessThan(4.5);
    expect(large.met).toBeLessThan(4_000 * POSTINGS_CAP);
    expect(groups.map((group) => group.members.length)).toEqual([4_000]);
  });
});

describe('a short block without card sections', () => {
  it('takes its bullet lines as the checklist and the rest as the situation', () => {
    const [draft] = extractDrafts('[LESSON]\nTag pushed before CI was green\nWe tagged from a red main.\n- [ ] Tag only green commits\n* Protect release tags\n[/LESSON]');
    expect(draft).toEqual({
      title: 'Tag pushed before CI was green',
      tags: [],
      body: '## Situation\n\nWe tagged from a red main.\n\n## Prevention Checklist\n\n- [ ] Tag only green commits\n- [ ] Protect release tags\n',
    });
  });
});
