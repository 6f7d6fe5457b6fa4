import { loadWorktreeFacts, openLessonCache } from '../lesson/cached-load.js';
import { silentProgress, type Progress } from '../io/progress.js';
import { findRepoRoot } from '../io/repo.js';
import { loadPolicy } from '../policy/validate-policy.js';
import type { Policy } from '../policy/policy.js';
import { validateAgainst, type SchemaError } from '../schema/validate.js';
import { toIsoDate } from '../util/dates.js';
import { readSourceApplications, withLocalApplications } from '../sources/applications.js';
import { loadSourceLessons, type SourceLessons } from '../sources/load.js';
import { fileFindings, lintTree, type LintResult } from './lint.js';

export interface LintOptions {
  cwd: string;
  now: Date;
  progress?: Progress;
}

export async function lint(options: LintOptions): Promise<LintResult> {
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const schemaErrors = (data: unknown) => validateAgainst('lesson', data);
  // The file rules run only on files the cache has no findings for; the tree rules run on all.
  const cache = openLessonCache(root);
  const progress = options.progress ?? silentProgress;
  try {
    const { tree } = loadWorktreeFacts(root, cache, { fileFindings: (item) => fileFindings(item, schemaErrors) }, undefined, progress);
    const sources = policy.sources.length > 0 ? sourcesOf(root, policy, schemaErrors, progress) : undefined;
    progress.say('checking ids, references and evidence');
    return lintTree({ tree, policy, today: toIsoDate(options.now), schemaErrors, ...(sources ? { sources } : {}) });
  } finally {
    progress.end();
    await cache.save();
  }
}

/** The fetched sources' lessons, their patterns with the applications recorded here. */
function sourcesOf(root: string, policy: Policy, schemaErrors: (data: unknown) => SchemaError[], progress: Progress): SourceLessons {
  const loaded = loadSourceLessons(root, policy, { schemaErrors, progress });
  return { ...loaded, lessons: withLocalApplications(loaded.lessons, readSourceApplications(root)) };
}
