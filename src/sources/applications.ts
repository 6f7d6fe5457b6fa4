import path from 'node:path';
import { writeFileAtomic } from '../io/fs.js';
import { LESSONS_DIR } from '../io/repo.js';
import type { Application, Lesson } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { validateAgainst } from '../schema/validate.js';
import { compareStrings } from '../util/compare.js';
import { formatJson } from '../util/json.js';
import { readSourcesJson } from './json-file.js';
import { loadSourceLessons, type SourceLesson } from './load.js';

/** Validated uses here of patterns that live in a source (which this repository cannot write to). */
export const SOURCE_APPLICATIONS_FILE = `${LESSONS_DIR}/source-applications.json`;

export interface SourceApplication extends Application {
  /** `<source>:<pattern-id>`. */
  pattern: string;
}

export function readSourceApplications(root: string): SourceApplication[] {
  const data = readSourcesJson(root, SOURCE_APPLICATIONS_FILE, 'source-applications', `restore it with \`git checkout ${SOURCE_APPLICATIONS_FILE}\``);
  return data === undefined ? [] : (data as { applications: SourceApplication[] }).applications;
}

export function formatSourceApplications(applications: readonly SourceApplication[]): string {
  const sorted = [...applications]
    .sort((a, b) => compareStrings(a.pattern, b.pattern) || compareStrings(a.context, b.context) || compareStrings(a.ref, b.ref))
    .map(({ pattern, context, ref, validated_at }) => ({ pattern, context, ref, validated_at }));
  return formatJson({ version: 1, applications: sorted });
}

export function writeSourceApplications(root: string, applications: readonly SourceApplication[]): void {
  writeFileAtomic(path.join(root, SOURCE_APPLICATIONS_FILE), formatSourceApplications(applications));
}

/** The sources' lessons, each pattern's applications joined with those recorded here for it. */
export function withLocalApplications(lessons: readonly SourceLesson[], local: readonly SourceApplication[]): SourceLesson[] {
  return lessons.map((item) => {
    const here = local.filter((application) => application.pattern === item.qualifiedId).map(({ context, ref, validated_at }) => ({ context, ref, validated_at }));
    return here.length === 0 ? item : { ...item, lesson: { ...item.lesson, applications: [...item.lesson.applications, ...here] } };
  });
}

/**
 * The fetched sources' lessons by `<source>:<id>`, named so (the id of each is its qualified
 * id) and with the applications recorded here: what promotion looks evidence up in.
 */
export function sourceLessonLookup(root: string, policy: Policy): Map<string, Lesson> {
  if (policy.sources.length === 0) return new Map();
  const { lessons } = loadSourceLessons(root, policy, { schemaErrors: (data) => validateAgainst('lesson', data) });
  return new Map(withLocalApplications(lessons, readSourceApplications(root)).map((item) => [item.qualifiedId, { ...item.lesson, id: item.qualifiedId }]));
}
