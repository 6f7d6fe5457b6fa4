import type { IndexEntry } from '../../src/index/build.js';
import { emptyTriggers, type Triggers } from '../../src/lesson/model.js';
import { buildSearchIndex, buildSegment, type SearchExtras } from '../../src/search/build.js';
import { memorySource, SearchIndex } from '../../src/search/search-index.js';
import { Segment } from '../../src/search/segment.js';
import type { PreflightInput } from '../../src/preflight/query.js';
import { lessonFile } from './lessons.js';

/** An index entry with defaults, for ranking tests that never touch disk. */
export function indexEntry(fields: Partial<Omit<IndexEntry, 'triggers'>> & { id: string; triggers?: Partial<Triggers> }): IndexEntry {
  const level = fields.level ?? 'case';
  const folder = { case: 'cases', pattern: 'patterns', principle: 'principles' }[level];
  return {
    path: `lessons/${folder}/${fields.id}.md`,
    title: fields.id.replace(/-/g, ' '),
    level,
    status: 'validated',
    severity: 'medium',
    tags: [],
    confidence: 3,
    transferability: 3,
    source: 'curated',
    occurrences: 1,
    created_at: '2026-01-01',
    last_seen: null,
    last_validated_at: '2026-06-01',
    summary: '',
    project: null,
    kind: null,
    insight: null,
    checklist: ['Check the thing.'],
    source_case_ids: [],
    source_pattern_ids: [],
    applications: [],
    duplicate_of: null,
    superseded_by: null,
    retired_reason: null,
    promoted_from: [],
    promoted_into: [],
    ...fields,
    triggers: { ...emptyTriggers(), ...fields.triggers },
  };
}

export function searchIndexOf(entries: readonly IndexEntry[], extras: SearchExtras = {}): SearchIndex {
  return SearchIndex.open(memorySource(buildSearchIndex(entries, { digest: 'test', stat: null, verifiedMtimeMs: 0 }, extras)))!;
}

/**
 * The local lessons' search index with other repositories' lessons beside it, as `lessons sources
 * update` builds them: `sources` carry their `<source>:<id>` ids.
 */
export function searchIndexWithSources(local: readonly IndexEntry[], sources: readonly IndexEntry[]): SearchIndex {
  const segment = Segment.open(memorySource(buildSegment({ kind: 'sources', entries: sources, source: { digest: 'sources', stat: null, verifiedMtimeMs: 0 } })))!;
  return SearchIndex.open(memorySource(buildSearchIndex(local, { digest: 'test', stat: null, verifiedMtimeMs: 0 })), undefined, undefined, segment)!;
}

export function taskInput(task: string, context: Partial<PreflightInput> = {}): PreflightInput {
  return { task, paths: [], tool: null, command: null, project: null, ...context };
}

export const NOW = new Date('2026-11-20T12:00:00Z');

/** Two lessons on disk: a release case, and a critical one with a Bash command trigger. */
export const RELEASE_AND_FORCE_PUSH = {
  ...lessonFile({ id: 'case-2026-01-01-version-bump-missed-manifest', title: 'Version bump missed the plugin manifest', tags: ['release', 'versioning'] }),
  ...lessonFile({
    id: 'case-2026-01-02-force-push-rewrote-main',
    title: 'Force push rewrote main',
    severity: 'critical',
    tags: ['git'],
    triggers: { tools: ['Bash'], commands: ['git push --force*'] },
  }),
};
