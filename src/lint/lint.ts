import type { LoadedLesson, LoadedTree } from '../lesson/load.js';
import type { Policy } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import { compareFindings, type Finding } from './finding.js';
import { FILE_RULES, TREE_RULES, type LintContext } from './rules.js';
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

export function groupById(lessons: readonly LoadedLesson[]): Map<string, LoadedLesson[]> {
  const byId = new Map<string, LoadedLesson[]>();
  for (const item of lessons) {
    if (item.lesson.id === '') continue;
    byId.set(item.lesson.id, [...(byId.get(item.lesson.id) ?? []), item]);
  }
  return byId;
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

function autoCandidateCap(lessons: readonly LoadedLesson[], policy: Policy): Finding[] {
  const waiting = lessons.filter((item) => item.lesson.source === 'auto' && item.lesson.status === 'candidate');
  const cap = policy.lessons.max_auto_candidates;
  if (waiting.length <= cap) return [];
  return [
    {
      rule: 'auto-candidates',
      severity: 'warning',
      file: 'lessons',
      message: `${waiting.length} auto-captured candidates wait for review (policy cap ${cap}): accept, merge or retire some`,
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
  return item.precomputed.fileFindings;
}

/** Every rule over every lesson, plus the rules about the tree as a whole; pure. */
export function lintTree(input: LintInput): LintResult {
  const { tree, policy, today, schemaErrors } = input;
  const byId = groupById(tree.lessons);
  const sources = input.sources;
  const context: LintContext = {
    policy,
    today,
    byId,
    schemaErrors,
    sources: sources && {
      byId: new Map(sources.lessons.map((item) => [item.qualifiedId, item])),
      names: new Set(policy.sources.map((source) => source.name)),
      fetched: new Set(sources.fetched),
    },
  };
  const findings: Finding[] = [...tree.problems, ...uniqueIds(byId), ...autoCandidateCap(tree.lessons, policy), ...(sources ? [...sources.problems, ...localWins(byId, sources)] : [])];
  for (const item of tree.lessons) {
    findings.push(...fileFindingsOf(item, schemaErrors));
    for (const rule of TREE_RULES) findings.push(...rule(item, context));
  }
  findings.sort(compareFindings);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return { findings, lessons: tree.lessons.length, errors, warnings: findings.length - errors };
}
