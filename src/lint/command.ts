import { listLessonEntries, loadEntries } from '../lesson/load.js';
import { findRepoRoot } from '../io/repo.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { validateAgainst } from '../schema/validate.js';
import { toIsoDate } from '../util/dates.js';
import { loadSourceLessons } from '../sources/load.js';
import { lintTree, type LintResult } from './lint.js';

export interface LintOptions {
  cwd: string;
  now: Date;
}

export async function lint(options: LintOptions): Promise<LintResult> {
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const schemaErrors = (data: unknown) => validateAgainst('lesson', data);
  return lintTree({
    tree: loadEntries(root, listLessonEntries(root), schemaErrors),
    policy,
    today: toIsoDate(options.now),
    schemaErrors,
    ...(policy.sources.length > 0 ? { sources: loadSourceLessons(root, policy, { schemaErrors }) } : {}),
  });
}
