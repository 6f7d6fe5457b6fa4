import { buildIndex, type IndexEntry } from '../index/build.js';
import { LessonsError } from '../errors.js';
import type { Progress } from '../io/progress.js';
import type { Policy } from '../policy/policy.js';
import { validateAgainst } from '../schema/validate.js';
import { compareStrings } from '../util/compare.js';
import { loadSourceLessons, type SourceLessons } from './load.js';
import { policySources } from './lock-file.js';
import { qualifiedId, splitQualifiedId } from './model.js';

export interface SourceEntries {
  /** Index entries of every fetched source's lessons (retired ones too), ids `<source>:<id>`, paths the checkout's; sorted by id. */
  entries: IndexEntry[];
  loaded: SourceLessons;
}

/**
 * The fetched sources' lessons as index entries, with the links between a source's own lessons
 * as its own index has them, qualified by source: what the sources' search segment, export and
 * ask take beside the local index.
 */
export function sourceIndexEntries(root: string, policy: Policy, progress?: Progress): SourceEntries {
  const loaded = loadSourceLessons(root, policy, { schemaErrors: (data) => validateAgainst('lesson', data), ...(progress ? { progress } : {}) });
  const entries: IndexEntry[] = [];
  for (const name of loaded.fetched) {
    const qualify = (id: string): string => qualifiedId(name, id);
    for (const entry of buildIndex(loaded.lessons.filter((item) => item.source === name)).lessons) {
      entries.push({ ...entry, id: qualify(entry.id), promoted_from: entry.promoted_from.map(qualify), promoted_into: entry.promoted_into.map(qualify) });
    }
  }
  entries.sort((a, b) => compareStrings(a.id, b.id));
  return { entries, loaded };
}

/**
 * The sources' lessons to take beside the local ones `local`: retired ones never, and one whose
 * id a local lesson has is the local one's (lint says so). Refused, naming the source and what
 * to run, when a source of the policy is not checked out at its locked commit: what is written
 * from them (an export) must be what CI gets with `lessons sources update --locked`.
 */
export function sourceEntriesBeside(root: string, policy: Policy, local: readonly IndexEntry[], options: { locked: boolean }): IndexEntry[] {
  if (policy.sources.length === 0) return [];
  const { entries, loaded } = sourceIndexEntries(root, policy);
  if (options.locked) {
    const away = policySources(policy).find((source) => !loaded.fetched.includes(source.name) || loaded.offLock.includes(source.name));
    if (away !== undefined) {
      throw new LessonsError('SOURCES_NOT_LOCKED', `source \`${away.name}\` is not checked out at its locked commit: run \`lessons sources update --locked\` (or \`lessons sources update\` to take newer lessons), then run this again`);
    }
  }
  const ids = new Set(local.map((entry) => entry.id));
  return entries.filter((entry) => entry.status !== 'retired' && !ids.has(splitQualifiedId(entry.id)!.id));
}
