import { groupById, type LoadedLesson, type LoadedTree } from '../lesson/load.js';
import type { Policy } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import { compareFindings, type Finding } from '../lesson/finding.js';
import { FILE_RULES, TREE_RULES, type LintContext, type SourceContext } from './rules.js';
import type { SourceLessons } from '../sources/load.js';

export interface LintInput {
  tree: LoadedTree;
  policy: Policy;
  today: string;
  schemaErrors: (data: unknown) => SchemaError[];
  /** The policy's sources, loaded: their problems are warnings, and references into them resolve. */
  sources?: SourceLessons | undefined;
}

export interface LintResult {
  findings: Finding[];
  lessons: number;
  errors: number;
  warnings: number;
}

function uniqueIds(byId: Map<string, LoadedLesson[]>): Finding[] {
  const findings: Finding[] = [];
  for (const [id, items] of byId) {
    if (items.length < 2) continue;
    for (const item of items) {
      const others = items.filter((other) => other !== item).map((other) => other.path);
      findings.push({
        rule: 'unique-id',
        severity: 'error',
        file: item.path,
        ...(item.parsed.keyLines.has('id') ? { line: item.parsed.keyLines.get('id')! } : {}),
        field: 'id',
        message: `id \`${id}\` is also used by ${others.join(', ')}: ids are unique across levels, rename one`,
      });
    }
  }
  return findings;
}

/** An auto-captured lesson still waiting for review: the policy caps how many may wait. */
export function waitsForReview(lesson: { source: string; status: string }): boolean {
  return lesson.source === 'auto' && lesson.status === 'candidate';
}

function autoCandidateCap(waiting: number, policy: Policy): Finding[] {
  const cap = policy.lessons.max_auto_candidates;
  if (waiting <= cap) return [];
  return [
    {
      rule: 'auto-candidates',
      severity: 'warning',
      file: 'lessons',
      message: `${waiting} auto-captured candidates wait for review (policy cap ${cap}): accept, merge or retire some`,
    },
  ];
}

/** An id both here and in a source: the local lesson is the one every command takes. */
function localWins(byId: Map<string, LoadedLesson[]>, sources: SourceLessons): Finding[] {
  return sources.lessons.flatMap((item) => {
    const local = byId.get(item.lesson.id)?.[0];
    if (local === undefined) return [];
    return [{ rule: 'source-shadowed', severity: 'warning' as const, file: local.path, field: 'id', message: `id \`${item.lesson.id}\` is also a lesson of source \`${item.source}\` (${item.qualifiedId}): the local one wins; rename it if they are different lessons` }];
  });
}

/** What the file rules find in one lesson: a function of its path and bytes alone, so the file cache keeps it. */
export function fileFindings(item: LoadedLesson, schemaErrors: (data: unknown) => SchemaError[]): Finding[] {
  return FILE_RULES.flatMap((rule) => rule(item, { schemaErrors }));
}

function fileFindingsOf(item: LoadedLesson, schemaErrors: (data: unknown) => SchemaError[]): Finding[] {
  if (item.precomputed === undefined) return fileFindings(item, schemaErrors);
  // A summarised lesson has no body to run the file rules on: its loader must have asked for them.
  if (item.precomputed.fileFindings === undefined) throw new Error(`${item.path}: summarised without its file findings`);
  return [...item.precomputed.fileFindings];
}

/** The sources as the tree rules read them: `<source>:<id>` references resolve against these. */
export function sourceContext(policy: Policy, sources: SourceLessons): SourceContext {
  return {
    byId: new Map(sources.lessons.map((item) => [item.qualifiedId, item])),
    names: new Set(policy.sources.map((source) => source.name)),
    fetched: new Set(sources.fetched),
  };
}

/** The context the tree rules read: the lessons by id, the policy, the clock, the sources. */
export function lintContext(input: LintInput, byId: Map<string, LoadedLesson[]> = groupById(input.tree.lessons)): LintContext {
  const { policy, today, schemaErrors, sources } = input;
  return { policy, today, byId, schemaErrors, sources: sources && sourceContext(policy, sources) };
}

/** What the rules find in one lesson: its file rules' findings and its tree rules' (which read other lessons through the context only). */
export function lessonFindings(item: LoadedLesson, context: LintContext): Finding[] {
  const findings = fileFindingsOf(item, context.schemaErrors);
  for (const rule of TREE_RULES) findings.push(...rule(item, context));
  return findings;
}

/**
 * The rules about the tree as a whole: ids unique (over `byId`, which must hold every id used
 * twice), the auto-candidate cap (`waiting` lessons), the sources' problems and shadowed ids.
 */
export function treeFindings(byId: Map<string, LoadedLesson[]>, waiting: number, policy: Policy, sources: SourceLessons | undefined): Finding[] {
  return [...uniqueIds(byId), ...autoCandidateCap(waiting, policy), ...(sources ? [...sources.problems, ...localWins(byId, sources)] : [])];
}

export function lintResult(findings: Finding[], lessons: number): LintResult {
  findings.sort(compareFindings);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return { findings, lessons, errors, warnings: findings.length - errors };
}

/** Every rule over every lesson, plus the rules about the tree as a whole; pure. */
export function lintTree(input: LintInput): LintResult {
  const { tree } = input;
  const byId = groupById(tree.lessons);
  const context = lintContext(input, byId);
  const findings: Finding[] = [...tree.problems, ...treeFindings(byId, tree.lessons.filter((item) => waitsForReview(item.lesson)).length, input.policy, input.sources)];
  for (const item of tree.lessons) findings.push(...lessonFindings(item, context));
  return lintResult(findings, tree.lessons.length);
}
