import { checklistItems } from '../lesson/body.js';
import { fileStem, type LoadedLesson } from '../lesson/load.js';
import { CHECKLIST_HEADING, type Lesson } from '../lesson/model.js';
import { lineOfField } from '../lesson/parse.js';
import type { Policy } from '../policy/policy.js';
import { daysBetween, isIsoDate } from '../util/dates.js';
import { pointerToField, type SchemaError } from '../schema/validate.js';
import type { Finding } from '../lesson/finding.js';
import { evidenceOf } from '../lesson/evidence.js';
import type { SourceLesson } from '../sources/load.js';
import { splitQualifiedId } from '../sources/model.js';
import { globProblem } from '../util/glob.js';
import { placeholderRule } from './placeholders.js';

/** The sources' lessons, when lint loaded them: `<source>:<id>` references resolve against these. */
export interface SourceContext {
  byId: Map<string, SourceLesson>;
  /** The source names of the policy. */
  names: ReadonlySet<string>;
  /** The sources that have a checkout. */
  fetched: ReadonlySet<string>;
}

export interface LintContext {
  policy: Policy;
  /** Today as YYYY-MM-DD: the clock is a parameter. */
  today: string;
  byId: Map<string, LoadedLesson[]>;
  schemaErrors: (data: unknown) => SchemaError[];
  /** Absent where the sources are not loaded (the guard): `<source>:<id>` references are then not checked. */
  sources?: SourceContext | undefined;
}

/** A lesson by id: a local one, or a source's by `<source>:<id>`. */
export function lookupLesson(context: LintContext, id: string): Lesson | undefined {
  return context.byId.get(id)?.[0]?.lesson ?? context.sources?.byId.get(id)?.lesson;
}

/** A rule looks at one lesson with the whole tree at hand and returns what it found. */
export type LessonRule = (item: LoadedLesson, context: LintContext) => Finding[];

/** A rule of the file alone: the schema's verdict is all it takes from outside. */
export type FileRule = (item: LoadedLesson, context: Pick<LintContext, 'schemaErrors'>) => Finding[];

function at(item: LoadedLesson, rule: string, severity: Finding['severity'], field: string | undefined, message: string): Finding {
  const line = field === undefined ? undefined : lineOfField(item.parsed, `/${field.replace(/\./g, '/')}`);
  return {
    rule,
    severity,
    file: item.path,
    ...(line === undefined ? {} : { line }),
    ...(field === undefined ? {} : { field }),
    message,
  };
}

export const schemaRule: FileRule = (item, context) =>
  (item.schemaErrors ?? context.schemaErrors(item.parsed.data)).map((error) => {
    const line = lineOfField(item.parsed, error.pointer) ?? (error.message === 'is required' ? 1 : undefined);
    return {
      rule: 'schema',
      severity: 'error' as const,
      file: item.path,
      ...(line === undefined ? {} : { line }),
      field: pointerToField(error.pointer) || '(frontmatter)',
      message: `${pointerToField(error.pointer) || 'frontmatter'} ${error.message}`,
    };
  });

export const idMatchesFileRule: LessonRule = (item) => {
  const stem = fileStem(item.path);
  const { id } = item.lesson;
  if (id === '' || id === stem) return [];
  return [at(item, 'id-file', 'error', 'id', `id \`${id}\` differs from the file name: rename the file to ${id}.md or set id: ${stem}`)];
};

export const levelMatchesFolderRule: FileRule = (item) => {
  const declared = item.parsed.data.level;
  if (typeof declared !== 'string' || declared === item.folderLevel) return [];
  return [
    at(item, 'level-folder', 'error', 'level', `level \`${declared}\` does not match its folder (${item.folderLevel}): move the file or change the level with \`lessons promote\``),
  ];
};

export const checklistRule: FileRule = (item) => {
  const { lesson } = item;
  if (lesson.status === 'retired' || checklistItems(lesson.body).length > 0) return [];
  if (lesson.status === 'candidate') {
    return [at(item, 'checklist', 'warning', undefined, `no \`## ${CHECKLIST_HEADING}\` items yet: add them before \`lessons accept\``)];
  }
  return [
    at(item, 'checklist', 'error', 'status', `a ${lesson.status} lesson needs a non-empty \`## ${CHECKLIST_HEADING}\` list (\`- [ ] ...\` items): preflight shows nothing without it`),
  ];
};

/** Trigger globs that would not compile: preflight and report would match nothing with them (they once crashed). */
export const triggerGlobsRule: FileRule = (item) => {
  const findings: Finding[] = [];
  const { triggers } = item.lesson;
  for (const field of ['paths', 'commands'] as const) {
    const globs = Array.isArray(triggers?.[field]) ? triggers[field] : [];
    globs.forEach((glob, i) => {
      const problem = typeof glob === 'string' ? globProblem(glob) : undefined;
      if (problem !== undefined) findings.push(at(item, 'triggers', 'error', `triggers.${field}`, `triggers.${field}[${i}] ${JSON.stringify(glob)} ${problem}`));
    });
  }
  return findings;
};

const KNOWN_KEYS = new Set([
  'id', 'title', 'level', 'status', 'severity', 'tags', 'confidence', 'transferability', 'source', 'occurrences',
  'created_at', 'last_seen', 'last_validated_at', 'summary', 'project', 'kind', 'insight', 'source_case_ids', 'applications',
  'source_pattern_ids', 'duplicate_of', 'superseded_by', 'retired_reason', 'promoted_to', 'triggers',
]);

export const unknownKeysRule: FileRule = (item) =>
  Object.keys(item.parsed.data)
    .filter((key) => !KNOWN_KEYS.has(key))
    .map((key) => at(item, 'unknown-key', 'warning', key, `unknown field \`${key}\`: kept as is, but no command uses it (check its spelling)`));

/** A lesson's validation date as the stale rule reads it, and its line: none for a retired lesson, or one without a real date. */
export function validationOf(item: LoadedLesson): Validation | undefined {
  const validated = item.lesson.last_validated_at;
  if (item.lesson.status === 'retired' || validated === null || !isIsoDate(validated)) return undefined;
  return { date: validated, line: lineOfField(item.parsed, '/last_validated_at') };
}

export interface Validation {
  date: string;
  line: number | undefined;
}

/**
 * The `stale` warning of lesson `id` (in `file`) last validated as `validation` says, on
 * `today`; none within the policy's limit. The one finding that depends on the day.
 */
export function staleFinding(file: string, id: string, validation: Validation, today: string, limit: number): Finding | undefined {
  const age = daysBetween(validation.date, today);
  if (age <= limit) return undefined;
  return {
    rule: 'stale',
    severity: 'warning',
    file,
    ...(validation.line === undefined ? {} : { line: validation.line }),
    field: 'last_validated_at',
    message: `last validated ${age} days ago (policy limit ${limit}): review it and run \`lessons accept ${id}\`, or retire it`,
  };
}

export const datesRule: LessonRule = (item, context) => {
  const findings: Finding[] = [];
  const { lesson } = item;
  for (const field of ['created_at', 'last_seen', 'last_validated_at'] as const) {
    const value = lesson[field];
    if (value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !isIsoDate(value)) {
      findings.push(at(item, 'date', 'error', field, `${field} ${value} is not a real calendar date`));
    }
  }
  const validation = validationOf(item);
  const stale = validation && staleFinding(item.path, lesson.id, validation, context.today, context.policy.lessons.stale_after_days);
  if (stale) findings.push(stale);
  return findings;
};

/** A `<source>:<id>` reference: checked against the source's fetched, locked checkout. */
function sourceTarget(item: LoadedLesson, context: LintContext, field: string, id: string): Lesson | Finding[] {
  const sources = context.sources;
  const qualified = splitQualifiedId(id)!;
  if (sources === undefined) return [];
  if (!sources.names.has(qualified.source)) {
    return [at(item, 'reference', 'error', field, `${field} names \`${id}\`, but \`${qualified.source}\` is not a source in the policy: add it to sources or fix the id`)];
  }
  if (!sources.fetched.has(qualified.source)) {
    return [at(item, 'reference', 'warning', field, `${field} names \`${id}\`, but source \`${qualified.source}\` is not fetched: run \`lessons sources update\` to check it`)];
  }
  const target = sources.byId.get(id);
  if (target === undefined) return [at(item, 'reference', 'error', field, `${field} names \`${id}\`, which source \`${qualified.source}\` does not have at its locked commit: fix the id or remove it`)];
  return target.lesson;
}

function reference(item: LoadedLesson, context: LintContext, field: string, id: string, expected: Lesson['level'] | undefined): Finding[] {
  let target: Lesson;
  if (splitQualifiedId(id) !== undefined) {
    const found = sourceTarget(item, context, field, id);
    if (Array.isArray(found)) return found;
    target = found;
  } else {
    const targets = context.byId.get(id);
    if (!targets || targets.length === 0) {
      return [at(item, 'reference', 'error', field, `${field} names \`${id}\`, which does not exist: fix the id or remove it`)];
    }
    target = targets[0]!.lesson;
  }
  if (id === item.lesson.id) return [at(item, 'reference', 'error', field, `${field} names the lesson itself`)];
  if (expected && target.level !== expected) {
    return [at(item, 'reference', 'error', field, `${field} names \`${id}\`, a ${target.level}; it must name a ${expected}`)];
  }
  if (target.status === 'retired' && field !== 'superseded_by') {
    return [at(item, 'reference', 'warning', field, `${field} names \`${id}\`, which is retired${target.superseded_by ? ` (superseded by ${target.superseded_by})` : ''}`)];
  }
  return [];
}

export const referencesRule: LessonRule = (item, context) => {
  const { lesson } = item;
  const findings: Finding[] = [];
  for (const id of lesson.source_case_ids) findings.push(...reference(item, context, 'source_case_ids', id, 'case'));
  for (const id of lesson.source_pattern_ids) findings.push(...reference(item, context, 'source_pattern_ids', id, 'pattern'));
  if (lesson.duplicate_of) findings.push(...reference(item, context, 'duplicate_of', lesson.duplicate_of, lesson.level));
  if (lesson.superseded_by) {
    findings.push(...reference(item, context, 'superseded_by', lesson.superseded_by, undefined));
    const target = context.byId.get(lesson.superseded_by)?.[0]?.lesson;
    if (target?.status === 'retired') {
      findings.push(at(item, 'reference', 'warning', 'superseded_by', `superseded_by names \`${target.id}\`, which is retired too: point it at the lesson that replaces both`));
    }
  }
  return findings;
};

export const retirementRule: LessonRule = (item) => {
  const { lesson } = item;
  if (lesson.status !== 'retired') {
    return lesson.superseded_by || lesson.retired_reason
      ? [at(item, 'retirement', 'warning', lesson.superseded_by ? 'superseded_by' : 'retired_reason', `a ${lesson.status} lesson has retirement fields: remove them, or retire it with \`lessons retire\``)]
      : [];
  }
  if (lesson.superseded_by || lesson.retired_reason) return [];
  return [at(item, 'retirement', 'error', 'status', 'a retired lesson needs superseded_by or retired_reason: say what replaces it or why it no longer holds')];
};

/** The promotion evidence of SPEC §8, for every pattern and principle that is not retired. */
export const evidenceRule: LessonRule = (item, context) => {
  const { lesson } = item;
  if (lesson.status === 'retired') return [];
  const evidence = evidenceOf(lesson, (id) => lookupLesson(context, id));
  if (evidence === undefined || evidence.ok) return [];
  const field = lesson.level === 'pattern' ? 'source_case_ids' : 'source_pattern_ids';
  // A candidate is a proposal still gathering its evidence; validated and canonical ones stand on it.
  if (lesson.status === 'candidate') {
    return [at(item, 'evidence', 'warning', field, `a candidate ${lesson.level} without the evidence yet: ${evidence.missing}; it cannot be accepted until it has it`)];
  }
  return [at(item, 'evidence', 'error', field, `not enough evidence for a ${lesson.level}: ${evidence.missing}`)];
};

/**
 * `promoted_to` is the back-link `lessons promote` writes into each source. The index joins it
 * with the sources the patterns and principles name, so it must agree with them.
 */
export const provenanceRule: LessonRule = (item, context) => {
  const { lesson } = item;
  const findings: Finding[] = [];
  for (const id of lesson.promoted_to) {
    const problems = reference(item, context, 'promoted_to', id, undefined).filter((finding) => finding.severity === 'error');
    if (problems.length > 0) {
      findings.push(...problems);
      continue;
    }
    const target = lookupLesson(context, id);
    if (target === undefined) continue;
    if (![...target.source_case_ids, ...target.source_pattern_ids].includes(lesson.id)) {
      findings.push(
        at(item, 'provenance', 'warning', 'promoted_to', `promoted_to names \`${id}\`, which does not list \`${lesson.id}\` among its sources: remove it here or add the source there`),
      );
    }
  }
  return findings;
};

export const LESSON_RULES: readonly LessonRule[] = [
  schemaRule,
  idMatchesFileRule,
  levelMatchesFolderRule,
  checklistRule,
  unknownKeysRule,
  triggerGlobsRule,
  datesRule,
  referencesRule,
  retirementRule,
  evidenceRule,
  provenanceRule,
];

/** The rules that read the file itself (its raw frontmatter, body and layout): their findings are a function of the file alone. */
export const FILE_RULES: readonly FileRule[] = [schemaRule, levelMatchesFolderRule, checklistRule, unknownKeysRule, triggerGlobsRule, placeholderRule];

/**
 * The rules that read only the lesson's fields (and the tree, the policy, the clock): they run on
 * every lesson each time, over the summaries the file cache keeps.
 */
export const TREE_RULES: readonly LessonRule[] = [idMatchesFileRule, datesRule, referencesRule, retirementRule, evidenceRule, provenanceRule];
