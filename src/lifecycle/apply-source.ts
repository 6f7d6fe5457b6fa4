import { withLock } from '../io/lock.js';
import { findRepoRoot } from '../io/repo.js';
import { applicationInput, applicationResult, checkApplicationDate, type ApplyOptions, type ApplyResult } from './apply.js';
import { LESSONS_LOCK, refuse } from './change.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { toIsoDate } from '../util/dates.js';
import { SOURCE_APPLICATIONS_FILE, readSourceApplications, sourceLessonLookup, writeSourceApplications } from '../sources/applications.js';
import { splitQualifiedId } from '../sources/model.js';

/**
 * Records a validated use here of a source's pattern (`lessons apply platform:pattern-x`) in
 * lessons/source-applications.json: the source is another repository, so the record stays
 * here, and promotion counts it with the source's own.
 */
export async function applySourcePattern(options: ApplyOptions): Promise<ApplyResult> {
  const { context, ref } = applicationInput(options);
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const qualified = splitQualifiedId(options.id)!;
  if (!policy.sources.some((source) => source.name === qualified.source)) {
    throw refuse(`\`${qualified.source}\` is not a source in the policy: add it to sources, or name a local pattern`);
  }
  return withLock(root, LESSONS_LOCK, () => {
    const today = toIsoDate(options.now);
    checkApplicationDate(options.date, today);
    const pattern = sourceLessonLookup(root, policy).get(options.id);
    if (pattern === undefined) throw refuse(`source \`${qualified.source}\` has no lesson \`${qualified.id}\` in its checkout: check the id, or run \`lessons sources update\``);
    if (pattern.level !== 'pattern') throw refuse(`\`${options.id}\` is a ${pattern.level}: applications are recorded on patterns`);
    if (pattern.status === 'retired') throw refuse(`\`${options.id}\` is retired${pattern.superseded_by ? `: record the application on \`${qualified.source}:${pattern.superseded_by}\`` : ''}`);
    const recorded = readSourceApplications(root);
    const application = { context, ref, validated_at: options.date ?? today };
    const result = applicationResult(options.id, SOURCE_APPLICATIONS_FILE, pattern.applications, application);
    if (result.action === 'recorded') writeSourceApplications(root, [...recorded, { pattern: options.id, ...application }]);
    return result;
  });
}
